import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { closedPort, startTestSmtp, unfoldMail as unfold } from '../../../test/smtp.ts';
import { seedSuggestion, seedTask } from './briefs-test-kit.ts';

apiSuite('executive brief: e-mail delivery', () => {
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let t: TestApp;
  let down: TestApp;
  let ceo: TestUser;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://cc.example/',
      SMTP_FROM: 'Brief <brief@cc.example>',
    });
    down = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    ceo = await t.createUser('ceo');
  });
  afterAll(async () => {
    await t.close();
    await down.close();
    await smtp.close();
  });

  it('e-mails every brief as HTML and plain text with links into the app', async () => {
    const task = await seedTask(t, {
      title: 'Board deck',
      by: ceo,
      assignee: ceo,
      priority: 'High',
      due: '2026-06-10',
    });
    const waiting = await seedSuggestion(t, ceo, 'Call top customers');
    const res = await t.req({ method: 'POST', url: '/api/briefs/generate', token: ceo.token });
    expect(res.statusCode, res.body).toBe(201);
    const brief = res.json();
    expect(brief.delivery).toMatchObject({ status: 'sent', reason: null });
    expect(brief.delivery.delivered_at).toEqual(expect.any(String));

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail.from).toBe('brief@cc.example');
    expect(mail.to).toEqual([ceo.email.toLowerCase()]);
    const raw = unfold(mail.raw);
    expect(raw).toMatch(
      /^Subject: Your brief of \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/m,
    );
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw).toContain('Content-Type: text/html');
    expect(raw).toContain(`Board deck: https://cc.example/app/my-tasks?task=${task.id}`);
    expect(raw).toContain(`<a href="https://cc.example/app/my-tasks?task=${task.id}">Board deck</a>`);
    // A waiting item's link opens it in the inbox, like its chip and action in the app.
    expect(raw).toContain(`Call top customers: https://cc.example/app/inbox?item=${waiting.itemId}`);
    expect(raw).toContain(
      `<a href="https://cc.example/app/inbox?item=${waiting.itemId}">Call top customers</a>`,
    );
    expect(raw).toContain(`https://cc.example/app/brief?id=${brief.id}`);

    // The stored brief says so too.
    const again = await t.req({ method: 'GET', url: `/api/briefs/${brief.id}`, token: ceo.token });
    expect(again.json().delivery.status).toBe('sent');
  });

  it('keeps a brief that cannot be sent and says why', async () => {
    const owner = await down.createUser('ceo');
    const res = await down.req({ method: 'POST', url: '/api/briefs/generate', token: owner.token });
    expect(res.statusCode, res.body).toBe(201);
    const brief = res.json();
    expect(brief.delivery.status).toBe('not_delivered');
    expect(brief.delivery.reason).toMatch(/ECONNREFUSED|connect/i);
    const list = await down.req({ method: 'GET', url: '/api/briefs/', token: owner.token });
    expect(list.json()).toEqual([brief]);
  });

  it('does not e-mail without SMTP_URL', async () => {
    const plain = await createTestApp();
    try {
      const u = await plain.createUser('ceo');
      const res = await plain.req({ method: 'POST', url: '/api/briefs/generate', token: u.token });
      expect(res.json().delivery).toEqual({ status: 'not_configured', reason: null, delivered_at: null });
    } finally {
      await plain.close();
    }
  });
});
