import { randomUUID } from 'node:crypto';
import {
  CONNECTION_FIELDS,
  DEFAULT_MAIL_DAYS,
  MAX_CONNECTIONS_PER_PERSON,
  type TConnection,
  type TConnectionKind,
  type TConnectionTestResult,
  type ZCreateConnectionRequest,
  type ZUpdateConnectionRequest,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, conflict, type FieldProblem } from '../../platform/errors.ts';
import { sealSecret } from '../../platform/secrets/secret-box.ts';
import { type ActivityVia, recordActivity } from '../activity/activity.ledger.ts';
import { assertSeesConnection } from './connections.policy.ts';
import { probeConnection } from './connections.probe.ts';
import { presentConnection } from './connections.presenter.ts';
import * as repo from './connections.repository.ts';
import { CONNECTIONS_WAKE, connectionWorkerOf, nudgeChannel } from './connections.worker.ts';

type CreateBody = z.output<typeof ZCreateConnectionRequest>;
type UpdateBody = z.output<typeof ZUpdateConnectionRequest>;

/** GET /api/connections/: the caller's own connections, oldest first. */
export async function listConnections(ctx: AppContext, caller: AuthUser): Promise<TConnection[]> {
  return (await repo.listConnections(ctx.db, caller.id)).map(presentConnection);
}

/** The host a connection shows: the address's host (an ICS address itself stays sealed). */
const hostOf = (kind: TConnectionKind, url: string | undefined, host: string | undefined) =>
  kind === 'imap' ? (host ?? '').toLowerCase() : new URL(url ?? '').host.toLowerCase();

/**
 * POST /api/connections/: stores the connection (credentials sealed) as never synced and due now, and
 * wakes the workers; no network here — the address policy and the server are met by the sync.
 */
export async function createConnection(
  ctx: AppContext,
  caller: AuthUser,
  body: CreateBody,
  via: ActivityVia,
): Promise<TConnection> {
  if ((await repo.countConnections(ctx.db, caller.id)) >= MAX_CONNECTIONS_PER_PERSON) {
    throw conflict(
      `You have ${MAX_CONNECTIONS_PER_PERSON} connections, the most one person may have: disconnect one first.`,
    );
  }
  const now = nowIso();
  const secret = body.kind === 'ics' ? body.url : body.password;
  const row: repo.ConnectionRow = {
    id: randomUUID(),
    user_id: caller.id,
    kind: body.kind,
    name: body.name,
    url: body.kind === 'caldav' ? (body.url ?? null) : null,
    host: hostOf(body.kind, body.url, body.host),
    port: body.kind === 'imap' ? (body.port ?? (body.tls === false ? 143 : 993)) : null,
    tls: body.kind === 'imap' ? (body.tls === false ? 0 : 1) : null,
    username: body.username ?? null,
    secret_sealed: secret ? sealSecret(ctx.config.secretsKey, secret) : null,
    mail_days: body.kind === 'imap' ? (body.mail_days ?? DEFAULT_MAIL_DAYS) : null,
    status: 'never_synced',
    last_synced_at: null,
    last_error: null,
    sync_state: null,
    next_sync_at: now,
    failures: 0,
    lease_owner: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertConnection(trx, row);
    await recordActivity(trx, {
      actorUserId: caller.id,
      via,
      action: 'connection.created',
      entityType: 'connection',
      entityId: row.id,
      summary: `Connected ${row.kind === 'imap' ? 'mailbox' : 'calendar'} "${row.name}" (${row.host})`,
    });
  });
  await ctx.bus.publish(CONNECTIONS_WAKE, { id: row.id });
  return presentConnection(row);
}

async function ownConnection(ctx: AppContext, caller: AuthUser, id: string): Promise<repo.ConnectionRow> {
  return assertSeesConnection(await repo.findConnection(ctx.db, id), caller);
}

/**
 * PATCH /api/connections/{id}: a new address, credential or number of days of mail starts the
 * connection afresh (cursor forgotten, due now); a new name only renames it.
 */
export async function updateConnection(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  given: UpdateBody,
): Promise<TConnection> {
  const row = await ownConnection(ctx, caller, id);
  const kind = row.kind as TConnectionKind;
  const shown = presentConnection(row) as unknown as Record<string, unknown>;
  // What the body changes: a field sent back as it was shown is no change (round-trip bodies).
  const body: UpdateBody = Object.fromEntries(
    Object.entries(given).filter(([f, v]) => v !== undefined && (f === 'password' || v !== shown[f])),
  );
  const problems: FieldProblem[] = [];
  for (const [f, v] of Object.entries(body)) {
    const loc = ['body', f];
    if (f !== 'name' && !CONNECTION_FIELDS[kind].includes(f)) {
      problems.push({ loc, msg: `A ${kind} connection has no ${f}.`, type: 'value_error' });
    } else if (v === null) {
      problems.push({ loc, msg: `The ${f} of a ${kind} connection cannot be emptied.`, type: 'value_error' });
    }
  }
  if (problems.length) throw new AppError(422, problems);
  const patch: Partial<repo.ConnectionRow> = { updated_at: nowIso() };
  if (body.name !== undefined) patch.name = body.name;
  if (typeof body.mail_days === 'number') patch.mail_days = body.mail_days;
  const restart = ['url', 'host', 'port', 'tls', 'username', 'password', 'mail_days'].some(
    (f) => body[f as keyof UpdateBody] !== undefined,
  );
  if (typeof body.url === 'string') {
    patch.host = hostOf(kind, body.url, undefined);
    if (kind === 'ics') patch.secret_sealed = sealSecret(ctx.config.secretsKey, body.url);
    else patch.url = body.url;
  }
  if (body.host !== undefined) patch.host = body.host.toLowerCase();
  if (typeof body.port === 'number') patch.port = body.port;
  if (typeof body.tls === 'boolean') patch.tls = body.tls ? 1 : 0;
  if (typeof body.username === 'string') patch.username = body.username;
  if (body.password !== undefined) patch.secret_sealed = sealSecret(ctx.config.secretsKey, body.password);
  if (restart) {
    Object.assign(patch, { sync_state: null, failures: 0, last_error: null, next_sync_at: nowIso() });
  }
  await repo.updateConnection(ctx.db, row.id, patch);
  if (restart) {
    // A session under the old settings ends; the connection is claimed afresh with the new ones.
    await ctx.bus.publish(nudgeChannel(row.id), { restart: true });
    await ctx.bus.publish(CONNECTIONS_WAKE, { id: row.id });
  }
  return presentConnection({ ...row, ...patch });
}

/**
 * DELETE /api/connections/{id} (disconnect): the connection and everything imported from it go in one
 * transaction with one ledger entry; a sync running here is stopped first.
 */
export async function deleteConnection(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  via: ActivityVia,
): Promise<void> {
  const row = await ownConnection(ctx, caller, id);
  await connectionWorkerOf(ctx)?.abort(row.id);
  await ctx.db.transaction().execute(async (trx) => {
    const removed = await repo.deleteConnection(trx, row.id);
    await recordActivity(trx, {
      actorUserId: caller.id,
      via,
      action: 'connection.deleted',
      entityType: 'connection',
      entityId: row.id,
      summary: `Disconnected "${row.name}" (${row.host}): ${removed.events} calendar entries and ${removed.mails} mails removed`,
      before: { kind: row.kind, name: row.name, host: row.host, ...removed },
    });
  });
  // A sync of it on another instance stops at once (or at its next lease renewal).
  await ctx.bus.publish(nudgeChannel(row.id), { restart: true });
}

/** POST /api/connections/{id}/sync: due now; a session waiting for mail checks at once. */
export async function syncNow(ctx: AppContext, caller: AuthUser, id: string): Promise<TConnection> {
  const row = await ownConnection(ctx, caller, id);
  const patch = { next_sync_at: nowIso(), updated_at: nowIso() };
  await repo.updateConnection(ctx.db, row.id, patch);
  await ctx.bus.publish(CONNECTIONS_WAKE, { id: row.id });
  await ctx.bus.publish(nudgeChannel(row.id), {});
  return presentConnection({ ...row, ...patch });
}

/**
 * POST /api/connections/{id}/test: signs in (reads the calendar file) without importing anything and
 * answers in a sentence; the connection's status is the sync's, not changed here.
 */
export async function testConnection(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
): Promise<TConnectionTestResult> {
  return probeConnection(ctx, await ownConnection(ctx, caller, id));
}
