import { parseCustomPrompts, parseObjectives, type TUpdateMeRequest, type TUser } from '@cc/contract';

export interface ProfileValues {
  name: string;
  role: string;
  objectives: string;
  behavior_notes: string;
  knowledge_summary: string;
  custom_prompts: string;
}

export function profileValues(user: TUser): ProfileValues {
  const p = user.profile;
  return {
    name: p.name ?? '',
    role: p.role ?? '',
    objectives: p.objectives.join('\n'),
    behavior_notes: p.behavior_notes ?? '',
    knowledge_summary: p.knowledge_summary ?? '',
    custom_prompts: JSON.stringify(p.custom_prompts ?? {}, null, 2),
  };
}

/** Blank text is stored as null; surrounding white space is not kept. */
function text(v: string | null | undefined): string | null {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
}

/**
 * The fields of the profile form that differ from the stored profile, ready for PATCH /api/users/me.
 * The e-mail is never part of it; custom_prompts only for admins.
 */
export function profileChanges(
  user: TUser,
  values: ProfileValues,
  canEditPrompts: boolean,
): TUpdateMeRequest {
  const p = user.profile;
  const changes: TUpdateMeRequest = {};
  for (const key of ['name', 'role', 'behavior_notes', 'knowledge_summary'] as const) {
    const next = text(values[key]);
    if (next !== text(p[key])) changes[key] = next;
  }
  const objectives = parseObjectives(values.objectives);
  if (JSON.stringify(objectives) !== JSON.stringify(p.objectives)) changes.objectives = objectives;
  if (canEditPrompts) {
    const prompts = parseCustomPrompts(values.custom_prompts);
    if (JSON.stringify(prompts) !== JSON.stringify(p.custom_prompts ?? {})) changes.custom_prompts = prompts;
  }
  return changes;
}

export function isValidPromptsJson(value: string): boolean {
  try {
    const v = JSON.parse(value);
    return Boolean(v) && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}
