import type { TInboxItem } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

/**
 * Issue 47 item 4: `GET /api/inbox/` under concurrent approvals logged Fastify's "Reply was already
 * sent". Over real HTTP, approvals run while many reads of the same page race them, some of them
 * abandoned by their client (a browser refetching the inbox on every change note drops the old read).
 */
apiSuite('inbox list under concurrent approvals', () => {
  let t: TestApp;
  let ceo: TestUser;
  let base: string;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'warn' }, { logLines });
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    await t.createOrg(ceo, 'Busy Co');
    base = await t.listen();
  });
  afterAll(() => t.close());

  const call = async (method: string, path: string, body?: unknown, signal?: AbortSignal) => {
    const res = await fetch(`${base}${path}`, {
      method,
      signal,
      headers: {
        authorization: `Bearer ${ceo.token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, cache: res.headers.get('x-cache'), text: await res.text() };
  };
  type Page = { items: TInboxItem[]; total: number };
  const LIST = '/api/inbox/?limit=100';

  it('every read is one whole 200 of the right items, and nothing is sent twice', async () => {
    for (let round = 0; round < 3; round++) {
      for (const title of ['Draft hiring plan', 'Price the EU launch', 'Book the offsite', 'Audit vendors']) {
        expect((await call('POST', '/api/tasks/', { title: `${title} ${round}` })).status).toBe(201);
      }
      expect((await call('POST', '/api/task-suggestions/generate')).status).toBe(200);
    }
    const before = JSON.parse((await call('GET', LIST)).text) as Page;
    const toApprove = before.items.filter((i) => i.kind === 'task_suggestion').slice(0, 6);
    expect(toApprove.length).toBe(6);

    const approvals = toApprove.map((i) => call('POST', `/api/inbox/${i.id}/approve`, {}));
    const reads = Array.from({ length: 60 }, (_, n) =>
      new Promise((r) => setTimeout(r, n % 10)).then(() => call('GET', LIST)),
    );
    const abandoned = Array.from({ length: 60 }, (_, n) =>
      call('GET', LIST, undefined, AbortSignal.timeout(1 + (n % 15))).catch(() => null),
    );
    const [approved, listed] = await Promise.all([
      Promise.all(approvals),
      Promise.all(reads),
      Promise.all(abandoned),
    ]);
    // The abandoned reads finish on the server after their clients left.
    await new Promise((r) => setTimeout(r, 300));

    expect(approved.map((a) => a.status)).toEqual(toApprove.map(() => 200));
    const known = new Set(before.items.map((i) => i.id));
    for (const res of listed) {
      expect(res.status, res.text).toBe(200);
      const page = JSON.parse(res.text) as Page;
      expect(page.total).toBe(page.items.length);
      for (const item of page.items) expect(known.has(item.id)).toBe(true);
    }
    // Cache hits were served (the path that sent twice), not only fresh reads.
    expect(listed.some((r) => r.cache === 'hit')).toBe(true);
    const gone = new Set(toApprove.map((i) => i.id));
    const after = JSON.parse((await call('GET', LIST)).text) as Page;
    expect(after.items.map((i) => i.id)).toEqual(before.items.map((i) => i.id).filter((id) => !gone.has(id)));
    expect(after.total).toBe(before.total - 6);
    expect(logLines.filter((l) => /already sent/i.test(JSON.stringify(l)))).toEqual([]);
    expect(logLines.filter((l) => Number(l.level) >= 40)).toEqual([]);
  });
});
