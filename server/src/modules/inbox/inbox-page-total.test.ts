import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { listInbox, openInboxItem, resolveInboxItem } from './inbox.service.ts';

/**
 * A page of the inbox and its total agree, however items are resolved meanwhile (seen on PostgreSQL:
 * the page and the count were two statements on two pool connections, and an approval committed
 * between them gave a page of n items with a total of n - 1). Many reads race many resolutions here;
 * each read must be one consistent snapshot.
 */
apiSuite('inbox page and total under concurrent resolutions', () => {
  let t: TestApp;
  let ceo: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  it('every page read while items resolve has exactly as many items as its total says (all fit one page)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const sourceId = randomUUID();
      ids.push(sourceId);
      await openInboxItem(t.ctx, {
        kind: 'task_suggestion',
        sourceType: 'task_suggestion',
        sourceId,
        sourceUrl: '/app/tasks',
        assigneeUserId: ceo.id,
        title: `Suggestion ${i}`,
        summary: 'Consider it',
        details: {},
      });
    }
    const caller = { id: ceo.id } as Parameters<typeof listInbox>[1];
    const mismatches: string[] = [];
    const reads: Promise<void>[] = [];
    const resolutions: Promise<void>[] = [];
    for (const sourceId of ids) {
      resolutions.push(
        resolveInboxItem(t.ctx, 'task_suggestion', sourceId, { status: 'resolved', resolvedBy: ceo.id }),
      );
      reads.push(
        listInbox(t.ctx, caller, { skip: 0, limit: 200 }).then((page) => {
          if (page.items.length !== page.total)
            mismatches.push(`${page.items.length} items, total ${page.total}`);
        }),
      );
    }
    await Promise.all([...resolutions, ...reads]);
    expect(mismatches).toEqual([]);
    const after = await listInbox(t.ctx, caller, { skip: 0, limit: 200 });
    expect(after).toEqual({ items: [], total: 0 });
  });

  it('a page past the end still says the total', async () => {
    await openInboxItem(t.ctx, {
      kind: 'task_suggestion',
      sourceType: 'task_suggestion',
      sourceId: randomUUID(),
      sourceUrl: '/app/tasks',
      assigneeUserId: ceo.id,
      title: 'One more',
      summary: 'Consider it',
      details: {},
    });
    const caller = { id: ceo.id } as Parameters<typeof listInbox>[1];
    expect(await listInbox(t.ctx, caller, { skip: 5, limit: 10 })).toEqual({ items: [], total: 1 });
    const first = await listInbox(t.ctx, caller, { skip: 0, limit: 10 });
    expect(first.total).toBe(1);
    expect(first.items.map((i) => i.title)).toEqual(['One more']);
  });
});
