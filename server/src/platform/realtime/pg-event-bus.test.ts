import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB } from '../../../test/helpers.ts';
import { PostgresEventBus } from './pg-event-bus.ts';

const pgReady = TEST_DB === 'postgres' && !!process.env.TEST_PG_URL;
const url = process.env.TEST_PG_URL as string;

// The LISTEN connection is cut (pg_terminate_backend; a PostgreSQL restart does the same to it): the bus
// must reconnect by itself, without an unhandled 'error', and deliver notes again.
describe.runIf(pgReady)('PostgreSQL event bus after a lost LISTEN connection', () => {
  let admin: pg.Client;
  let bus: PostgresEventBus;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    bus = new PostgresEventBus(url, async (channel, text) => {
      await admin.query('select pg_notify($1, $2)', [channel, text]);
    });
    await bus.whenReady();
  });
  afterAll(async () => {
    await bus?.close();
    await admin?.end();
  });

  it('reconnects and delivers again', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const got: unknown[] = [];
      bus.subscribe('reconnect-test', (p) => got.push(p));
      const cut = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN cc_events%' and pid <> pg_backend_pid()",
      );
      expect(cut.rowCount).toBeGreaterThan(0);
      // Notes published before the new LISTEN is up are lost by design (streams read rows after their
      // cursor): publish until one arrives.
      const deadline = Date.now() + 8000;
      let n = 0;
      while (got.length === 0 && Date.now() < deadline) {
        await bus.publish('reconnect-test', { n: n++ });
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(got.length).toBeGreaterThan(0);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});

// Subscribers on the publishing instance get the note at once (no NOTIFY round trip), other instances
// through LISTEN, and nobody twice.
describe.runIf(pgReady)('PostgreSQL event bus: local notes', () => {
  let admin: pg.Client;
  let here: PostgresEventBus;
  let there: PostgresEventBus;
  let releaseNotify: () => void = () => {};
  let notifies = 0;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    here = new PostgresEventBus(url, async (channel, text) => {
      notifies++;
      // The round trip is held until the test lets it go.
      await new Promise<void>((r) => {
        releaseNotify = r;
      });
      await admin.query('select pg_notify($1, $2)', [channel, text]);
    });
    there = new PostgresEventBus(url, async () => {});
    await Promise.all([here.whenReady(), there.whenReady()]);
  });
  afterAll(async () => {
    await here?.close();
    await there?.close();
    await admin?.end();
  });

  it('delivers to this instance before the NOTIFY, to the other through LISTEN, each once', async () => {
    const gotHere: unknown[] = [];
    const gotThere: unknown[] = [];
    here.subscribe('local-test', (p) => gotHere.push(p));
    there.subscribe('local-test', (p) => gotThere.push(p));
    const published = here.publish('local-test', { n: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(gotHere).toEqual([{ n: 1 }]);
    expect(gotThere).toEqual([]);
    releaseNotify();
    await published;
    const deadline = Date.now() + 3000;
    while (gotThere.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200)); // the echo of this instance's own note has come back
    expect(gotThere).toEqual([{ n: 1 }]);
    expect(gotHere).toEqual([{ n: 1 }]);
  });

  it('delivers notes published back to back in order, here at once and there after the NOTIFYs', async () => {
    const gotHere: unknown[] = [];
    const gotThere: unknown[] = [];
    here.subscribe('order-test', (p) => gotHere.push(p));
    there.subscribe('order-test', (p) => gotThere.push(p));
    const before = notifies;
    const published = [1, 2, 3].map((n) => here.publish('order-test', { n }));
    await new Promise((r) => setTimeout(r, 50));
    // The first NOTIFY is held: the local subscribers have all three anyway, in order.
    expect(gotHere).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    // One NOTIFY at a time: let each go as it comes.
    let sent = false;
    void Promise.all(published).then(() => {
      sent = true;
    });
    while (!sent) {
      releaseNotify();
      await new Promise((r) => setTimeout(r, 10));
    }
    const deadline = Date.now() + 3000;
    while (gotThere.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(gotThere).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    // The notes published while the first NOTIFY was held went together in the next one.
    expect(notifies - before).toBe(2);
  });
});
