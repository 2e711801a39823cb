/**
 * A person's answer at a human step applied to a plan of items (issue 47 item 2): remove, replace,
 * add, owner and due-date instructions. What cannot be applied is returned, said plainly by the
 * caller ("I could not apply: …"). Pure; dates are read against `today` (YYYY-MM-DD).
 */

export interface PlanEdit {
  items: string[];
  applied: number;
  notApplied: string[];
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** "Friday", "next Monday", "today", "tomorrow", "Q1", "2026-12-04", "4 December", "Dec 4" → YYYY-MM-DD. */
export function parseDay(phrase: string, today: string): string | null {
  const p = phrase
    .trim()
    .toLowerCase()
    .replace(/^(?:by|on)\s+/, '');
  const base = new Date(`${today}T00:00:00Z`);
  if (Number.isNaN(base.getTime())) return null;
  const plus = (n: number) => iso(new Date(base.getTime() + n * 86_400_000));
  if (/^\d{4}-\d{2}-\d{2}$/.test(p)) return p;
  if (p === 'today') return today;
  if (p === 'tomorrow') return plus(1);
  const quarter = /^q([1-4])$/.exec(p);
  if (quarter) {
    // The quarter's last day, this year's unless it has passed.
    const end = (year: number) => iso(new Date(Date.UTC(year, Number(quarter[1]) * 3, 0)));
    const year = base.getUTCFullYear();
    return end(year) >= today ? end(year) : end(year + 1);
  }
  const wd = /^(?:next |this )?([a-z]+)$/.exec(p);
  const w = wd ? WEEKDAYS.findIndex((d) => d === wd[1] || d.slice(0, 3) === wd[1]) : -1;
  if (w >= 0) {
    const ahead = (w - base.getUTCDay() + 7) % 7 || 7;
    return plus(ahead);
  }
  const dm = /^(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)$/.exec(p) ?? /^([a-z]+) (\d{1,2})(?:st|nd|rd|th)?$/.exec(p);
  if (dm) {
    const [dayText, monthText] = /^\d/.test(dm[1]) ? [dm[1], dm[2]] : [dm[2], dm[1]];
    const m = MONTHS.findIndex((x) => x === monthText || x.slice(0, 3) === monthText);
    if (m < 0) return null;
    let d = new Date(Date.UTC(base.getUTCFullYear(), m, Number(dayText)));
    if (d.getUTCMonth() !== m) return null;
    if (iso(d) < today) d = new Date(Date.UTC(base.getUTCFullYear() + 1, m, Number(dayText)));
    return iso(d);
  }
  return null;
}

const FILLER = new Set([
  'the',
  'a',
  'an',
  'item',
  'one',
  'point',
  'step',
  'task',
  'action',
  'line',
  'about',
  'on',
  'for',
]);
const keywords = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !FILLER.has(w));

/** The plan item a phrase ("the churn item") points at: the one sharing most of its words. */
function find(items: readonly string[], phrase: string): number {
  const asked = keywords(phrase);
  if (asked.length === 0) return -1;
  let best = -1;
  let score = 0;
  items.forEach((item, i) => {
    const words = new Set(keywords(item));
    const s = asked.filter((w) => words.has(w) || [...words].some((x) => x.startsWith(w))).length;
    if (s > score) [best, score] = [i, s];
  });
  return best;
}

interface Details {
  text: string;
  owner: string | null;
  due: string | null;
  badDue: string | null;
}

/** "the pricing review, owned by Leo, due Friday" → the text, its owner and its due date. */
function details(phrase: string, today: string): Details {
  let text = phrase;
  let owner: string | null = null;
  let due: string | null = null;
  let badDue: string | null = null;
  const o =
    /,?\s*(?:owned by|owner(?: is)?:?|assigned to|with)\s+([\p{Lu}][\p{L}'-]*(?:\s[\p{Lu}][\p{L}'-]*)?)/u.exec(
      text,
    );
  if (o) {
    owner = o[1];
    text = text.replace(o[0], '');
  }
  const d = /,?\s*\bdue\s+(.+?)\s*(?=,|$)/i.exec(text);
  if (d) {
    due = parseDay(d[1], today);
    if (!due) badDue = d[1];
    text = text.replace(d[0], '');
  }
  return {
    text: text
      .replace(/^(?:the|an?)\s+/i, '')
      .replace(/[,\s]+$/, '')
      .trim(),
    owner,
    due,
    badDue,
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * An item with its owner and due date said after it: "Pricing review (owner: Leo, due 2026-12-04)."
 * An owner or date given before is kept unless the instruction changes it; a new date replaces the
 * date the item said ("(it was due 2026-10-01)").
 */
function withDetails(item: string, owner: string | null, due: string | null): string {
  let base = item.trim().replace(/\.$/, '');
  const said = /\s*\(((?:owner: [^,)]*)?(?:, )?(?:due [^)]*)?)\)$/.exec(base);
  const before = {
    owner: /owner: ([^,)]*)/.exec(said?.[1] ?? '')?.[1] ?? null,
    due: /due (.*)$/.exec(said?.[1] ?? '')?.[1] ?? null,
  };
  if (said?.[1]) base = base.slice(0, said.index);
  if (due) base = base.replace(/\s*\((?:it )?was due [^)]*\)$/, '');
  const o = owner ?? before.owner;
  const d = due ?? before.due;
  const extra = [o ? `owner: ${o}` : null, d ? `due ${d}` : null].filter(Boolean).join(', ');
  return `${capital(base)}${extra ? ` (${extra})` : ''}.`;
}

/** The instructions of an answer, one clause each, without the "No"/"Yes" that opens it. */
function clauses(answer: string): string[] {
  return answer
    .replace(/^\s*(?:no|yes|ok|okay)\b[\s,.!:;-]*/i, '')
    .split(/(?<=[.;!?])\s+|\n+|\s+and then\s+/i)
    .map((c) => c.replace(/[.;!?]+$/, '').trim())
    .filter(Boolean);
}

/** Whether an answer holds any instruction this module understands (else it is a plain decision). */
export function hasPlanInstructions(answer: string): boolean {
  return clauses(answer).some((c) => INSTRUCTION.test(c));
}

const INSTRUCTION =
  /^(?:please\s+)?(?:remove|drop|delete|cut|replace|swap|add|include|assign|give|move|push|make|set)\b|\b(?:owned by|due)\b/i;

/** One kind of instruction: its wording, and how it changes the plan (a reason when it cannot). */
interface Rule {
  re: RegExp;
  apply: (m: RegExpExecArray, plan: string[], today: string) => string | null;
}

const NO_MATCH = 'no item of the plan matches it';
const notADate = (text: string) => `“${text}” is not a date I can read`;

const RULES: Rule[] = [
  {
    re: /^(?:please\s+)?(?:remove|drop|delete|cut)\s+(.+)$/i,
    apply: (m, plan) => {
      const i = find(plan, m[1]);
      if (i < 0) return NO_MATCH;
      plan.splice(i, 1);
      return null;
    },
  },
  {
    re: /^(?:please\s+)?(?:replace|swap)\s+(.+?)\s+(?:with|for|by)\s+(.+)$/i,
    apply: (m, plan, today) => {
      const i = find(plan, m[1]);
      const d = details(m[2], today);
      if (i < 0) return NO_MATCH;
      if (d.badDue) return notADate(d.badDue);
      plan[i] = withDetails(d.text, d.owner, d.due);
      return null;
    },
  },
  {
    re: /^(?:please\s+)?(?:add|include)\s+(.+)$/i,
    apply: (m, plan, today) => {
      const d = details(m[1], today);
      if (d.badDue) return notADate(d.badDue);
      plan.push(withDetails(d.text, d.owner, d.due));
      return null;
    },
  },
  {
    re: /^(?:please\s+)?(?:assign|give)\s+(.+?)\s+to\s+([\p{Lu}][\p{L}'-]*)$/iu,
    apply: (m, plan) => {
      const i = find(plan, m[1]);
      if (i < 0) return NO_MATCH;
      plan[i] = withDetails(plan[i], m[2], null);
      return null;
    },
  },
  {
    re: /^(?:please\s+)?(?:move|push|set)\s+(.+?)\s+to\s+(.+)$/i,
    apply: (m, plan, today) => {
      const i = find(plan, m[1]);
      const due = parseDay(m[2], today);
      if (i < 0) return NO_MATCH;
      if (!due) return notADate(m[2]);
      plan[i] = withDetails(plan[i], null, due);
      return null;
    },
  },
];

export function applyPlanEdits(items: readonly string[], answer: string, today: string): PlanEdit {
  const plan = [...items];
  const notApplied: string[] = [];
  let applied = 0;
  for (const clause of clauses(answer)) {
    const hit = RULES.map((r) => ({ r, m: r.re.exec(clause) })).find((x) => x.m !== null);
    const why = hit?.m
      ? hit.r.apply(hit.m, plan, today)
      : 'I understand remove, replace, add, owner and due-date instructions';
    if (why) notApplied.push(`“${clause}” (${why})`);
    else applied++;
  }
  return { items: plan, applied, notApplied };
}
