import type { TConnectionTestResult } from '@cc/contract';
import type { AppContext } from '../../platform/context.ts';
import { openSecret } from '../../platform/secrets/secret-box.ts';
import { expandCalendar } from './calendar-expand.ts';
import { ConnectionError, describeFailure } from './connections.outbound.ts';
import type { ConnectionRow } from './connections.repository.ts';
import { calendarWindow } from './connections.sync-types.ts';
import { caldavClient } from './sync-caldav.ts';
import { fetchIcs } from './sync-ics.ts';
import { imapSession } from './sync-imap.ts';

/** How long "Test" may take before it answers that the server did not answer. */
const TEST_TIMEOUT_MS = 20_000;

/**
 * The Test button: signs in to the connection's server (or reads its calendar file) without importing
 * anything, and says in a sentence what happened.
 */
export async function probeConnection(ctx: AppContext, row: ConnectionRow): Promise<TConnectionTestResult> {
  const secret = row.secret_sealed ? openSecret(ctx.config.secretsKey, row.secret_sealed) : null;
  if (secret === null) {
    return {
      ok: false,
      detail: "The stored credentials can no longer be read (the server's key changed): enter them again.",
    };
  }
  const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
  try {
    const detail = await Promise.race([
      probe(ctx, row, secret, signal),
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () =>
          reject(new ConnectionError(`${row.host} did not answer in time.`)),
        ),
      ),
    ]);
    return { ok: true, detail };
  } catch (err) {
    return { ok: false, detail: describeFailure(err, row.host) };
  }
}

async function probe(
  ctx: AppContext,
  row: ConnectionRow,
  secret: string,
  signal: AbortSignal,
): Promise<string> {
  if (row.kind === 'ics') {
    const job = {
      ctx,
      row,
      secret,
      signal,
      synced: async () => {},
      nudged: () => new Promise<void>(() => {}),
    };
    const { from, until } = calendarWindow(ctx);
    const n = expandCalendar(await fetchIcs(job), from, until).length;
    return `The calendar address works: ${n} ${n === 1 ? 'entry' : 'entries'} in the coming weeks.`;
  }
  if (row.kind === 'caldav') {
    const client = await caldavClient(ctx, row.url ?? '', row.username ?? '', secret, signal);
    const n = (await client.fetchCalendars()).length;
    return `Signed in to ${row.host}: ${n} ${n === 1 ? 'calendar' : 'calendars'} found.`;
  }
  const client = await imapSession(ctx, row.host, row.port ?? 993, row.tls !== 0, row.username ?? '', secret);
  await client.logout().catch(() => client.close());
  return `Signed in to ${row.host}.`;
}
