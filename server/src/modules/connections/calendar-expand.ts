import ICAL from 'ical.js';
import { ConnectionError } from './connections.outbound.ts';

/** One occurrence of an event, as it is stored (instants in UTC ISO text). */
export interface Occurrence {
  uid: string;
  starts_at: string;
  ends_at: string;
  all_day: boolean;
  time_zone: string | null;
  title: string;
  location: string | null;
  description: string | null;
  organizer: string | null;
  attendees: { email: string; name: string | null }[];
}

/** A runaway rule (FREQ=SECONDLY without end) stops here: a window of days never needs more. */
const MAX_OCCURRENCES_PER_EVENT = 5_000;

/**
 * Every occurrence of the iCalendar text's events that overlaps [from, until): ical.js expands
 * RRULE, RDATE and EXDATE in the event's own wall time (so "9:00 every Monday" stays 9:00 across a
 * daylight-saving change) and moved occurrences (RECURRENCE-ID) replace theirs. Times in a zone the
 * file defines use its VTIMEZONE; a zone it only names (an IANA id) is converted with the runtime's
 * time-zone data. Throws a ConnectionError when the text is not iCalendar.
 */
export function expandCalendar(text: string, from: Date, until: Date): Occurrence[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch {
    throw new ConnectionError('The calendar is not a valid iCalendar file.');
  }
  if (root.name !== 'vcalendar') throw new ConnectionError('The calendar is not a valid iCalendar file.');
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    ICAL.TimezoneService.register(new ICAL.Timezone(vtz));
  }
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Component[] = [];
  for (const ve of root.getAllSubcomponents('vevent')) {
    const uid = ve.getFirstPropertyValue('uid');
    if (typeof uid !== 'string' || !ve.getFirstProperty('dtstart')) continue;
    if (ve.getFirstProperty('recurrence-id')) exceptions.push(ve);
    else masters.set(uid, new ICAL.Event(ve));
  }
  for (const ex of exceptions) {
    const master = masters.get(String(ex.getFirstPropertyValue('uid')));
    if (master) master.relateException(ex);
    else masters.set(String(ex.getFirstPropertyValue('uid')), new ICAL.Event(ex));
  }
  const out: Occurrence[] = [];
  for (const [uid, event] of masters) {
    const tzid = tzidOf(event.component);
    if (!event.isRecurring()) {
      pushIfOverlaps(out, uid, event, event.startDate, event.endDate, tzid, from, until);
      continue;
    }
    const it = event.iterator();
    for (let n = 0; n < MAX_OCCURRENCES_PER_EVENT; n++) {
      const next = it.next();
      if (!next) break;
      if (instantOf(next, tzid) >= until) break;
      const d = event.getOccurrenceDetails(next);
      pushIfOverlaps(out, uid, d.item, d.startDate, d.endDate, tzidOf(d.item.component) ?? tzid, from, until);
    }
  }
  return out;
}

function pushIfOverlaps(
  out: Occurrence[],
  uid: string,
  item: ICAL.Event,
  start: ICAL.Time,
  end: ICAL.Time | null,
  tzid: string | null,
  from: Date,
  until: Date,
): void {
  const startsAt = instantOf(start, tzid);
  // An event without DTEND lasts a day (a date) or no time at all (RFC 5545 3.6.1).
  const endsAt = end ? instantOf(end, tzid) : new Date(startsAt.getTime() + (start.isDate ? 86_400_000 : 0));
  if (startsAt >= until || endsAt < from) return;
  const organizer = item.organizer ? mailAddress(item.organizer) : null;
  out.push({
    uid,
    starts_at: startsAt.toISOString(),
    ends_at: endsAt.toISOString(),
    all_day: start.isDate,
    time_zone: tzid,
    title: item.summary || '(no title)',
    location: item.location || null,
    description: item.description || null,
    organizer,
    attendees: item.attendees
      .map((p) => ({ email: mailAddress(String(p.getFirstValue() ?? '')), name: stringParam(p, 'cn') }))
      .filter((a) => a.email !== ''),
  });
}

function tzidOf(component: ICAL.Component): string | null {
  const tzid = component.getFirstProperty('dtstart')?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : null;
}

function stringParam(p: ICAL.Property, name: string): string | null {
  const v = p.getParameter(name);
  return typeof v === 'string' ? v : null;
}

const mailAddress = (value: string) =>
  value
    .replace(/^mailto:/i, '')
    .trim()
    .toLowerCase();

/**
 * The instant of a parsed time: UTC and zones the file defined convert through ical.js; a date is
 * midnight UTC of that day; a time in a zone the file only names is read as wall time in that IANA
 * zone; a floating time (no zone at all) is read as UTC.
 */
function instantOf(t: ICAL.Time, tzid: string | null): Date {
  if (t.isDate) return new Date(Date.UTC(t.year, t.month - 1, t.day));
  const zone = t.zone?.tzid;
  if (zone && zone !== 'floating') return t.toJSDate();
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return tzid && isIanaZone(tzid) ? new Date(wallToUtc(wall, tzid)) : new Date(wall);
}

function isIanaZone(tzid: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tzid });
    return true;
  } catch {
    return false;
  }
}

/** The UTC milliseconds at which the zone's clocks show `wall` (wall time written as UTC fields). */
function wallToUtc(wall: number, timeZone: string): number {
  // Two passes settle the offset on either side of a change (a gap's time moves forward by the gap).
  let guess = wall - offsetAt(wall, timeZone);
  guess = wall - offsetAt(guess, timeZone);
  return guess;
}

function offsetAt(utc: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utc));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return asUtc - Math.floor(utc / 1000) * 1000;
}
