import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DovecotServer, startDovecot } from '../../../test/dovecot.ts';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { freePort } from '../../../test/real-server.ts';
import { addConnection, LOOPBACK_ALLOWED, syncedAfter, waitForConnection } from './connections-test-kit.ts';

const DAY = 86_400_000;

/** An RFC 822 message (CRLF lines). */
function mail(o: {
  id: string;
  subject: string;
  from?: string;
  date?: Date;
  body: string;
  type?: string;
}): string {
  return [
    `From: ${o.from ?? 'Ada Lovelace <ada@partner.example>'}`,
    'To: Exec <exec@corp.example>',
    'Cc: bob@corp.example',
    `Subject: ${o.subject}`,
    `Date: ${(o.date ?? new Date()).toUTCString()}`,
    `Message-ID: <${o.id}@partner.example>`,
    'MIME-Version: 1.0',
    `Content-Type: ${o.type ?? 'text/plain; charset=utf-8'}`,
    '',
    o.body,
    '',
  ].join('\r\n');
}

const withAttachment = (id: string, subject: string, text: string, fileName: string, payload: string) =>
  mail({
    id,
    subject,
    type: 'multipart/mixed; boundary="b1"',
    body: [
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
      '--b1',
      `Content-Type: application/octet-stream; name="${fileName}"`,
      `Content-Disposition: attachment; filename="${fileName}"`,
      'Content-Transfer-Encoding: base64',
      '',
      payload,
      '--b1--',
    ].join('\r\n'),
  });

apiSuite('connections: an IMAP mailbox (a real Dovecot), read-only', () => {
  let t: TestApp;
  let owner: TestUser;
  let dovecot: DovecotServer;
  let connectionId = '';

  beforeAll(async () => {
    dovecot = await startDovecot();
    t = await createTestApp(LOOPBACK_ALLOWED);
    owner = await t.createUser('user');
  });
  afterAll(async () => {
    await t.close();
    await dovecot.stop();
  });

  const mails = () =>
    t.ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .orderBy('uid')
      .execute();

  it('imports the last days of mail: headers, plain text, attachment names; hostile HTML only as text', async () => {
    await dovecot.seed(mail({ id: 'old', subject: 'Last quarter', body: 'Old news' }), {
      date: new Date(Date.now() - 60 * DAY),
    });
    await dovecot.seed(
      withAttachment(
        'deck',
        'Board deck',
        'Deck attached.',
        'Q3 board.pdf',
        Buffer.from('%PDF-1.4').toString('base64'),
      ),
    );
    await dovecot.seed(
      mail({
        id: 'hostile',
        subject: 'Click me',
        type: 'text/html; charset=utf-8',
        body: '<html><head><style>p{}</style><script>alert(1)</script></head><body><p>Hello <b>board</b></p><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">link</a></body></html>',
      }),
    );
    const since = new Date().toISOString();
    const c = await addConnection(t, owner, {
      kind: 'imap',
      name: 'Work mail',
      host: dovecot.host,
      port: dovecot.port,
      tls: false,
      username: dovecot.user,
      password: dovecot.password,
    });
    connectionId = c.id;
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: dovecot.port,
      tls: false,
      mail_days: 30,
      has_password: true,
    });
    expect(JSON.stringify(c)).not.toContain(dovecot.password);
    const tested = await t.req({ method: 'POST', url: `/api/connections/${c.id}/test`, token: owner.token });
    expect(tested.json()).toEqual({ ok: true, detail: 'Signed in to 127.0.0.1.' });
    expect(await waitForConnection(t, owner, c.id, syncedAfter(since))).toMatchObject({
      status: 'connected',
      last_error: null,
    });

    const rows = await mails();
    expect(rows.map((m) => m.message_id)).toEqual(['<deck@partner.example>', '<hostile@partner.example>']);
    const [deck, hostile] = rows;
    expect(deck).toMatchObject({
      subject: 'Board deck',
      from_address: 'ada@partner.example',
      from_name: 'Ada Lovelace',
      mailbox: 'INBOX',
    });
    expect(deck.text_body.trim()).toBe('Deck attached.');
    expect(JSON.parse(deck.attachment_names)).toEqual(['Q3 board.pdf']);
    expect(JSON.parse(deck.to_addresses)).toEqual([{ email: 'exec@corp.example', name: 'Exec' }]);
    expect(JSON.parse(deck.cc_addresses)).toEqual([{ email: 'bob@corp.example', name: null }]);
    expect(hostile.text_body).toMatch(/Hello\s+board/i);
    // Reduced to text: no markup, no script or handler; a link's target may stay, as words.
    expect(hostile.text_body).not.toMatch(/<|onerror|alert\(1\)|alert\(2\)/i);
  });

  it('sees new mail through IDLE within 5 s', async () => {
    const before = (await mails()).length;
    const sent = Date.now();
    await dovecot.seed(mail({ id: 'fresh', subject: 'Are we on for Tuesday?', body: 'See you then.' }));
    while (Date.now() - sent < 5_000 && (await mails()).length === before)
      await new Promise((r) => setTimeout(r, 50));
    const rows = await mails();
    expect(rows.map((m) => m.message_id)).toContain('<fresh@partner.example>');
    expect(Date.now() - sent).toBeLessThan(5_000);
  });

  it('keeps a 50 MB mail without its text and says so; what was imported stays', async () => {
    const payload = Buffer.alloc(37 * 1024 * 1024, 7)
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
    await dovecot.seed(withAttachment('huge', 'Raw footage', 'Too big to read.', 'footage.mov', payload));
    const c = await waitForConnection(
      t,
      owner,
      connectionId,
      (x) => (x.last_error ?? '').includes(' MB '),
      30_000,
    );
    expect(c.status).toBe('connected');
    expect(c.last_error).toMatch(
      /^A message of 5\d MB is larger than 10 MB: it was kept without its text\.$/,
    );
    const huge = (await mails()).find((m) => m.message_id === '<huge@partner.example>');
    expect(huge).toMatchObject({ subject: 'Raw footage', text_body: '' });
    expect(JSON.parse(huge?.attachment_names ?? '[]')).toEqual(['footage.mov']);
    expect((await mails()).map((m) => m.message_id)).toEqual(
      expect.arrayContaining([
        '<deck@partner.example>',
        '<hostile@partner.example>',
        '<fresh@partner.example>',
      ]),
    );
  }, 60_000);

  it('wrong credentials and an unreachable server give a clear status and keep what was imported', async () => {
    const kept = (await mails()).length;
    let since = new Date().toISOString();
    await t.req({
      method: 'PATCH',
      url: `/api/connections/${connectionId}`,
      token: owner.token,
      body: { password: 'not-it' },
    });
    const refused = await waitForConnection(t, owner, connectionId, syncedAfter(since));
    expect(refused).toMatchObject({
      status: 'error',
      last_error: '127.0.0.1 refused the user name or password.',
    });
    expect(JSON.stringify(refused)).not.toContain('not-it');
    expect(await mails()).toHaveLength(kept);

    since = new Date().toISOString();
    const closed = await freePort();
    await t.req({
      method: 'PATCH',
      url: `/api/connections/${connectionId}`,
      token: owner.token,
      body: { port: closed, password: dovecot.password },
    });
    const unreachable = await waitForConnection(t, owner, connectionId, syncedAfter(since));
    expect(unreachable).toMatchObject({
      status: 'error',
      last_error: 'Could not reach 127.0.0.1: the server did not answer.',
    });
    expect(await mails()).toHaveLength(kept);
  });

  it("never writes to the mailbox: Dovecot's log of the product's login has no STORE, APPEND, COPY, MOVE or EXPUNGE", () => {
    const commands = dovecot.productCommands();
    // The log is the product's reading, not empty: it opened the mailbox read-only and fetched.
    expect(commands.some((c) => /^\S+ EXAMINE /i.test(c))).toBe(true);
    expect(commands.some((c) => /^\S+ (UID )?FETCH /i.test(c))).toBe(true);
    expect(commands.some((c) => /^\S+ IDLE/i.test(c))).toBe(true);
    expect(
      commands.filter((c) =>
        /^\S+ (UID )?(STORE|APPEND|COPY|MOVE|EXPUNGE|SELECT|DELETE|RENAME|CREATE)\b/i.test(c),
      ),
    ).toEqual([]);
  });
});
