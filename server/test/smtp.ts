import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as received. */
  raw: string;
  /** The message with quoted-printable soft breaks and escapes undone (links can be searched for). */
  text: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** The one-time secret of the last link to `page` e-mailed to `to`. */
  secretSentTo(to: string, page: string): string;
  close: () => Promise<void>;
}

/** The one SMTP server of the tests: real, on a free loopback port, keeping every message it receives. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', done);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: unfoldMail(raw),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    secretSentTo(to, page) {
      const mails = received.filter((m) => m.to.includes(to));
      const pattern = new RegExp(`${page.replace(/[/]/g, '\\/')}#token=([A-Za-z0-9_%-]+)`);
      const found = pattern.exec(mails.at(-1)?.text ?? '');
      if (!found) throw new Error(`no ${page} link was e-mailed to ${to}`);
      return decodeURIComponent(found[1]);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A loopback port nothing listens on (an SMTP server that is down). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Quoted-printable soft breaks and escapes undone, so text can be searched for. */
export const unfoldMail = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
