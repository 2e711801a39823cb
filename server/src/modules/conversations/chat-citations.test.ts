import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

interface Citation {
  type: string;
  id: string;
  title: string;
  url: string;
}

/** Issue 20 §3: a chat answer carries the records it used, only ever ones its reader may see. */
apiSuite('chat answers cite the records they used', () => {
  let t: TestApp;
  let ceo: TestUser; // tenant A
  let rival: TestUser; // tenant B: records with the same words
  let mine: { id: string; title: string };
  let theirs: { id: string; title: string };

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    rival = await t.createUser('ceo');
    await t.createOrg(ceo, 'Tenant A');
    await t.createOrg(rival, 'Tenant B');
    const task = async (u: TestUser, title: string) => {
      const res = await t.req({
        method: 'POST',
        url: '/api/tasks/',
        token: u.token,
        body: { title, priority: 'High' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; title: string };
    };
    mine = await task(ceo, 'Pipeline review with the sales team');
    theirs = await task(rival, 'Pipeline review for the rival board');
  });
  afterAll(() => t.close());

  const chat = async (u: TestUser, body: Record<string, unknown>) => {
    const conv = await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} });
    expect(conv.statusCode).toBe(201);
    const id = conv.json().id as string;
    const res = await t.req({ method: 'POST', url: `/api/conversations/${id}/chat`, token: u.token, body });
    expect(res.statusCode, res.body).toBe(200);
    return { id, reply: res.json() as { id: string; status: string; citations: Citation[] } };
  };

  it('cites the workspace records the internal search found, with where to open them; never another tenant’s', async () => {
    const { id, reply } = await chat(ceo, {
      message_text: 'How is the pipeline review going?',
      use_internal_search: true,
    });
    expect(reply.status).toBe('complete');
    const cited = reply.citations.find((c) => c.id === mine.id);
    expect(cited).toEqual({
      type: 'task',
      id: mine.id,
      title: mine.title,
      url: `/app/my-tasks?task=${mine.id}`,
    });
    expect(reply.citations.some((c) => c.id === theirs.id)).toBe(false);

    // The stored message carries the same citations; the question carries none.
    const page = await t.req({ method: 'GET', url: `/api/conversations/${id}/messages`, token: ceo.token });
    const [question, answer] = page.json().items as { sender: string; citations: Citation[] }[];
    expect(question.citations).toEqual([]);
    expect(answer.citations).toEqual(reply.citations);

    // The other tenant asking the same question gets their own record, never this one.
    const other = await chat(rival, {
      message_text: 'How is the pipeline review going?',
      use_internal_search: true,
    });
    expect(other.reply.citations.map((c) => c.id)).toContain(theirs.id);
    expect(other.reply.citations.some((c) => c.id === mine.id)).toBe(false);
  });

  it('an answer written without the workspace cites nothing', async () => {
    const { reply } = await chat(ceo, { message_text: 'How is the pipeline review going?' });
    expect(reply.status).toBe('complete');
    expect(reply.citations).toEqual([]);
  });
});
