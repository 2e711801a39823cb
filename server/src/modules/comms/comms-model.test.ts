import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { commsIdle } from './comms.messages.ts';

// The suggested reply comes from the configured model when there is one (here a local mock), with
// the thread in the prompt; a failing model leaves no suggestion pending.
apiSuite('comms suggestions from a configured model', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let ceo: TestUser;
  let maya: TestUser;
  let threadId: string;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test-key' });
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    maya = await t.createUser('user', { first_name: 'Maya' });
    await t.addToOrg(ceo, await t.createOrg(ceo), maya);
    const res = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [maya.id] },
    });
    threadId = res.json().id;
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const send = (text: string) =>
    t.req({
      method: 'POST',
      url: `/api/comms/threads/${threadId}/messages`,
      token: maya.token,
      body: { text },
    });
  const suggestion = async () =>
    (
      await t.req({ method: 'GET', url: `/api/comms/threads/${threadId}/suggestion`, token: ceo.token })
    ).json().suggestion;

  it('uses the model with the conversation in the prompt', async () => {
    mock.script({ kind: 'text', chunks: ['Sure, ', 'Thursday works.'] });
    expect((await send('Can we review the budget on Thursday?')).statusCode).toBe(201);
    await commsIdle(t.ctx);
    expect(await suggestion()).toMatchObject({ status: 'ready', text: 'Sure, Thursday works.' });
    const prompt = JSON.stringify(mock.chatRequests().at(-1)?.body);
    expect(prompt).toContain('Can we review the budget on Thursday?');
    // Issue 47 item 2: the model is told what the offline draft does.
    expect(prompt).toContain('a question gets an answer, or the decision the recipient has to make');
    expect(prompt).toContain('Never repeat the message back.');
  });

  it('drops the pending suggestion when the model fails', async () => {
    mock.script(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
    );
    expect((await send('Another question?')).statusCode).toBe(201);
    await commsIdle(t.ctx);
    expect(await suggestion()).toBeNull();
  });
});
