import type { TBrief } from '@cc/contract';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startTestSmtp, type TestSmtp } from '../../../test/smtp.ts';
import { DAILY_EMAILS_REACHED } from './briefs.service.ts';

/**
 * Issue 46 row 14: brief e-mails are sent at most 3 a day per person. Further briefs are still built
 * and kept, marked not e-mailed with the reason; a real SMTP server counts what arrived.
 */
apiSuite('executive brief: at most 3 e-mails a day per person', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let down: TestApp;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    // Six generates of one person fit the run-starts limit (not what this file tests).
    t = await createTestApp({ SMTP_URL: smtp.url, LIMIT_RUN_STARTS_PER_MINUTE: '20' });
    // An SMTP server that refuses every connection: a loopback port nothing listens on.
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as AddressInfo;
    await new Promise<void>((r) => srv.close(() => r()));
    down = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, LIMIT_RUN_STARTS_PER_MINUTE: '20' });
  });
  afterAll(async () => {
    await t.close();
    await down.close();
    await smtp.close();
  });

  const generate = async (u: TestUser): Promise<TBrief> => {
    const res = await t.req({ method: 'POST', url: '/api/briefs/generate', token: u.token });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const mailsTo = (u: TestUser) => smtp.received.filter((m) => m.to.includes(u.email));

  it('6 generates → 3 e-mails; the other 3 briefs are kept, not e-mailed, with the reason', async () => {
    const ceo = await t.createUser('ceo');
    const briefs: TBrief[] = [];
    for (let i = 0; i < 6; i++) briefs.push(await generate(ceo));
    expect(mailsTo(ceo)).toHaveLength(3);
    expect(briefs.map((b) => b.delivery.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'not_delivered',
      'not_delivered',
      'not_delivered',
    ]);
    for (const b of briefs.slice(3)) {
      expect(b.delivery).toEqual({
        status: 'not_delivered',
        reason: DAILY_EMAILS_REACHED,
        delivered_at: null,
      });
    }
    // The page shows the same as the answer.
    const listed = await t.req({ method: 'GET', url: '/api/briefs?limit=10', token: ceo.token });
    expect(listed.json().map((b: TBrief) => b.delivery.status)).toEqual([
      'not_delivered',
      'not_delivered',
      'not_delivered',
      'sent',
      'sent',
      'sent',
    ]);

    // Once the first e-mails are more than a day old, the next brief is e-mailed again.
    await t.ctx.db
      .updateTable('briefs')
      .set({ delivered_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where('user_id', '=', ceo.id)
      .where('delivery_status', '=', 'sent')
      .execute();
    expect((await generate(ceo)).delivery.status).toBe('sent');
    expect(mailsTo(ceo)).toHaveLength(4);
  });

  it('6 generates at once → still 3 e-mails (the claim is one person at a time)', async () => {
    const ceo = await t.createUser('ceo');
    const briefs = await Promise.all(Array.from({ length: 6 }, () => generate(ceo)));
    expect(mailsTo(ceo)).toHaveLength(3);
    expect(briefs.filter((b) => b.delivery.status === 'sent')).toHaveLength(3);
    expect(briefs.filter((b) => b.delivery.reason === DAILY_EMAILS_REACHED)).toHaveLength(3);
  });

  it('counts per person: another person still gets theirs', async () => {
    const [a, b] = [await t.createUser('ceo'), await t.createUser('ceo')];
    for (let i = 0; i < 4; i++) await generate(a);
    expect((await generate(b)).delivery.status).toBe('sent');
    expect(mailsTo(a)).toHaveLength(3);
    expect(mailsTo(b)).toHaveLength(1);
  });

  it('a send that failed does not use up one of the day’s e-mails', async () => {
    const ceo = await down.createUser('ceo');
    for (let i = 0; i < 4; i++) {
      const res = await down.req({ method: 'POST', url: '/api/briefs/generate', token: ceo.token });
      expect(res.statusCode, res.body).toBe(201);
      const { delivery } = res.json() as TBrief;
      expect(delivery.status).toBe('not_delivered');
      expect(delivery.reason).not.toBe(DAILY_EMAILS_REACHED);
    }
  });
});
