import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { type DovecotServer, startDovecot } from '../../../test/dovecot.ts';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { addConnection, LOOPBACK_ALLOWED, syncedAfter, waitForConnection } from './connections-test-kit.ts';
import { claimDueConnection, type ConnectionRow } from './connections.repository.ts';

apiSuite('connections: one sync at a time per connection, across instances and restarts', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    // The workers of this app never see these rows: they are due in the year 3000 until a test says so.
    t = await createTestApp();
    owner = await t.createUser('user');
  });
  afterAll(() => t.close());

  const insert = async (patch: Partial<ConnectionRow> = {}) => {
    const now = new Date().toISOString();
    const row: ConnectionRow = {
      id: randomUUID(),
      user_id: owner.id,
      kind: 'ics',
      name: 'Lease',
      url: null,
      host: '127.0.0.1:9',
      port: null,
      tls: null,
      username: null,
      secret_sealed: null,
      mail_days: null,
      status: 'never_synced',
      last_synced_at: null,
      last_error: null,
      sync_state: null,
      next_sync_at: '3000-01-01T00:00:00.000Z',
      failures: 0,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
      ...patch,
    };
    await t.ctx.db.insertInto('connections').values(row).execute();
    return row;
  };
  const at = new Date('3000-01-02T00:00:00.000Z');

  it('gives a due connection to exactly one of many concurrent claims', async () => {
    const rows = await Promise.all([insert(), insert(), insert()]);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        claimDueConnection(t.ctx.db, t.ctx.dialect, `owner-${i}`, at, 60_000),
      ),
    );
    const won = claims.filter((c) => c && rows.some((r) => r.id === c.id)).map((c) => c?.id);
    expect(won.sort()).toEqual(rows.map((r) => r.id).sort());
    const stored = await t.ctx.db
      .selectFrom('connections')
      .select(['id', 'lease_owner', 'status'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(stored.every((r) => r.lease_owner !== null && r.status === 'syncing')).toBe(true);
    // Held: nobody else gets them until the lease runs out.
    expect(await claimDueConnection(t.ctx.db, t.ctx.dialect, 'late', at, 60_000)).toBeUndefined();
    await t.ctx.db
      .deleteFrom('connections')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  });

  it('takes over a connection whose instance died (its lease ran out), and never one not yet due', async () => {
    const dead = await insert({
      lease_owner: 'crashed',
      lease_until: '3000-01-01T12:00:00.000Z',
      status: 'syncing',
    });
    await insert({ next_sync_at: '3000-06-01T00:00:00.000Z' });
    const claimed = await claimDueConnection(t.ctx.db, t.ctx.dialect, 'survivor', at, 60_000);
    expect(claimed).toMatchObject({ id: dead.id, lease_owner: 'survivor' });
    expect(await claimDueConnection(t.ctx.db, t.ctx.dialect, 'another', at, 60_000)).toBeUndefined();
  });
});

// SQLite is one instance by design; two instances share a PostgreSQL database.
const pgOnly = TEST_DB === 'postgres' && process.env.TEST_PG_URL ? describe : describe.skip;

pgOnly('connections: two instances on PostgreSQL sync a mailbox once', () => {
  let t: TestApp;
  let dovecot: DovecotServer;

  beforeAll(async () => {
    dovecot = await startDovecot();
    t = await createTestApp(LOOPBACK_ALLOWED);
  });
  afterAll(async () => {
    await t.close();
    await dovecot.stop();
  });

  it('signs in from one instance only while both run', async () => {
    const second = await buildApp(t.config, { serveWeb: false, migrate: false });
    await second.app.ready();
    try {
      const owner = await t.createUser('user');
      await dovecot.seed(
        'From: a@partner.example\r\nSubject: Once\r\nMessage-ID: <once@partner.example>\r\n\r\nHi\r\n',
      );
      const since = new Date().toISOString();
      const c = await addConnection(t, owner, {
        kind: 'imap',
        name: 'Shared',
        host: dovecot.host,
        port: dovecot.port,
        tls: false,
        username: dovecot.user,
        password: dovecot.password,
      });
      await second.ctx.bus.publish('connections:wake', {});
      await waitForConnection(t, owner, c.id, syncedAfter(since));
      // Both workers keep looking (every 5 s and on every wake-up) while the first holds the mailbox.
      for (let i = 0; i < 10; i++) {
        await second.ctx.bus.publish('connections:wake', {});
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(dovecot.productSessions()).toBe(1);
      const mails = await t.ctx.db
        .selectFrom('mail_messages')
        .select('message_id')
        .where('connection_id', '=', c.id)
        .execute();
      expect(mails).toEqual([{ message_id: '<once@partner.example>' }]);
    } finally {
      await second.app.close();
    }
  });
});
