import { randomUUID } from 'node:crypto';
import { safeFetch } from '../../ai/net/safe-fetch.ts';
import { nowIso } from '../../db/index.ts';
import { expandCalendar, type Occurrence } from './calendar-expand.ts';
import { ConnectionError } from './connections.outbound.ts';
import { type CalendarEventRow, replaceAllEvents } from './connections.repository.ts';
import { calendarWindow, type SyncJob } from './connections.sync-types.ts';

/** The largest calendar file read (a busy shared calendar of years is a few MB). */
const MAX_ICS_BYTES = 20 * 1024 * 1024;

/** Fetches the secret ICS address (through the outbound address policy) and replaces the feed's events. */
export async function fetchIcs(job: SyncJob): Promise<string> {
  const res = await safeFetch(job.secret, {
    allowlist: job.ctx.config.ai.httpAllowlist,
    timeoutMs: 30_000,
    maxBytes: MAX_ICS_BYTES,
    headers: { accept: 'text/calendar' },
    signal: job.signal,
  });
  if (res.status === 401 || res.status === 403) {
    throw new ConnectionError(`${job.row.host} refused the calendar address (HTTP ${res.status}).`);
  }
  if (res.status !== 200)
    throw new ConnectionError(`${job.row.host} answered the calendar address with HTTP ${res.status}.`);
  return res.text();
}

export async function syncIcs(job: SyncJob): Promise<void> {
  const text = await fetchIcs(job);
  const { from, until } = calendarWindow(job.ctx);
  // Parsed before anything is written: a malformed file leaves the events already imported.
  const occurrences = expandCalendar(text, from, until);
  await replaceAllEvents(job.ctx.db, job.row.id, eventRows(job, occurrences, null));
  await job.synced(null, null);
}

export function eventRows(job: SyncJob, occurrences: Occurrence[], href: string | null): CalendarEventRow[] {
  const now = nowIso();
  return occurrences.map((o) => ({
    id: randomUUID(),
    connection_id: job.row.id,
    user_id: job.row.user_id,
    uid: o.uid,
    href,
    starts_at: o.starts_at,
    ends_at: o.ends_at,
    all_day: o.all_day ? 1 : 0,
    time_zone: o.time_zone,
    title: o.title.slice(0, 1_000),
    location: o.location?.slice(0, 1_000) ?? null,
    description: o.description?.slice(0, 20_000) ?? null,
    organizer: o.organizer,
    attendees: JSON.stringify(o.attendees.slice(0, 500)),
    updated_at: now,
  }));
}
