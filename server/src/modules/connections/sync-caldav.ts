import { calendarMultiGet, type DAVCalendar, DAVClient, type DAVObject } from 'tsdav';
import { guardedProviderFetch } from '../../ai/net/guarded-provider-fetch.ts';
import type { AppContext } from '../../platform/context.ts';
import { expandCalendar } from './calendar-expand.ts';
import { ConnectionError } from './connections.outbound.ts';
import { hrefsOfConnection, replaceEventsOfObjects } from './connections.repository.ts';
import { calendarWindow, type SyncJob } from './connections.sync-types.ts';
import { eventRows } from './sync-ics.ts';

/** The CalDAV cursor: each calendar's sync-token (RFC 6578), by the calendar's URL. */
interface CaldavState {
  tokens: Record<string, string>;
}

/** The longest one CalDAV request may take (a calendar of years answers a REPORT in seconds). */
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * A signed-in CalDAV client whose every request goes through the outbound address policy (each
 * request's host is checked; a redirect is an error, never followed with the credentials) and ends
 * when `signal` aborts (shutdown, a deleted connection) or after a minute.
 */
export async function caldavClient(
  ctx: AppContext,
  url: string,
  username: string,
  password: string,
  signal: AbortSignal,
): Promise<DAVClient> {
  const guarded = guardedProviderFetch(ctx.config.ai.httpAllowlist);
  const client = new DAVClient({
    serverUrl: url,
    credentials: { username, password },
    authMethod: 'Basic',
    defaultAccountType: 'caldav',
    fetch: (input, init = {}) =>
      guarded(input, {
        ...init,
        signal: AbortSignal.any([
          signal,
          AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          ...(init.signal ? [init.signal] : []),
        ]),
      }),
  });
  try {
    await client.login();
  } catch (err) {
    if (/401|403|unauthori[sz]ed|invalid credentials/i.test(String((err as Error)?.message))) {
      throw new ConnectionError(`${new URL(url).host} refused the user name or password.`);
    }
    throw err;
  }
  return client;
}

/**
 * Syncs every calendar of the account: the first time (or when the server forgot the token) each
 * calendar is read whole; afterwards only what changed since its sync-token (created, changed and
 * deleted objects). Each object's occurrences are replaced in one transaction.
 */
export async function syncCaldav(job: SyncJob): Promise<void> {
  const { ctx, row } = job;
  const client = await caldavClient(ctx, row.url ?? '', row.username ?? '', job.secret, job.signal);
  const state = parseState(row.sync_state);
  const calendars = await client.fetchCalendars();
  const next: CaldavState = { tokens: {} };
  const window = calendarWindow(ctx);
  const rowsOf = (objects: DAVObject[]) =>
    objects.flatMap((o) => {
      if (typeof o.data !== 'string') return [];
      try {
        return eventRows(job, expandCalendar(o.data, window.from, window.until), o.url);
      } catch {
        return []; // one unreadable object never stops the rest of the calendar
      }
    });
  for (const calendar of calendars) {
    if (job.signal.aborted) throw new ConnectionError('The sync was stopped.');
    const token = state.tokens[calendar.url];
    const synced = token ? await changesSince(client, calendar, token) : null;
    if (synced) {
      const changed = [...synced.objects.created, ...synced.objects.updated];
      const hrefs = [...changed, ...synced.objects.deleted].map((o) => o.url);
      await replaceEventsOfObjects(ctx.db, row.id, hrefs, rowsOf(changed));
      next.tokens[calendar.url] = synced.syncToken ?? token;
    } else {
      const objects = await client.fetchCalendarObjects({ calendar });
      const known = (await hrefsOfConnection(ctx.db, row.id)).filter((h) => h.startsWith(calendar.url));
      await replaceEventsOfObjects(ctx.db, row.id, [...known, ...objects.map((o) => o.url)], rowsOf(objects));
      if (calendar.syncToken) next.tokens[calendar.url] = calendar.syncToken;
    }
  }
  await job.synced(JSON.stringify(next), null);
}

/** The changes since `token`, or null when the server no longer honours it (read the calendar whole). */
async function changesSince(client: DAVClient, calendar: DAVCalendar, token: string) {
  try {
    return await client.smartCollectionSyncDetailed({
      // The changed objects are read with a calendar-multiget (with the client's credentials).
      collection: { ...calendar, syncToken: token, objects: [], objectMultiGet: calendarMultiGet },
      method: 'webdav',
    });
  } catch (err) {
    // RFC 6578: a token the server no longer honours is refused (403/409 valid-sync-token, or 410).
    if (/Collection sync failed: (403|409|410)\b/.test(String((err as Error)?.message))) return null;
    throw err;
  }
}

function parseState(text: string | null): CaldavState {
  try {
    const parsed = JSON.parse(text ?? '') as CaldavState;
    return parsed && typeof parsed.tokens === 'object' ? parsed : { tokens: {} };
  } catch {
    return { tokens: {} };
  }
}
