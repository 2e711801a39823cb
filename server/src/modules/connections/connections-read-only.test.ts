import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The read-only guarantee of IMAP connections (docs/decisions/248), checked in the code as well as in
 * Dovecot's log (connections-imap.test.ts): the module never names one of imapflow's commands that
 * change a mailbox, and opens mailboxes with EXAMINE (`readOnly: true`) only.
 */
const WRITING = [
  'append',
  'messageFlagsAdd',
  'messageFlagsSet',
  'messageFlagsRemove',
  'setFlagColor',
  'messageDelete',
  'messageCopy',
  'messageMove',
  'mailboxCreate',
  'mailboxRename',
  'mailboxDelete',
  'mailboxSubscribe',
  'mailboxUnsubscribe',
  'mailboxOpen',
];

describe('connections: IMAP stays read-only', () => {
  const dir = path.dirname(new URL(import.meta.url).pathname);
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('test-kit'))
    .map((f) => ({ f, text: readFileSync(path.join(dir, f), 'utf8') }));

  it('names no imapflow method that writes to a mailbox', () => {
    const offences = sources.flatMap(({ f, text }) =>
      WRITING.filter((m) => new RegExp(`\\.${m}\\s*\\(`).test(text)).map((m) => `${f} calls ${m}`),
    );
    expect(sources.some(({ text }) => text.includes("from 'imapflow'"))).toBe(true);
    expect(offences).toEqual([]);
  });

  it('opens every mailbox read-only (EXAMINE)', () => {
    const locks = sources.flatMap(({ text }) => text.match(/getMailboxLock\([^)]*\)/g) ?? []);
    expect(locks.length).toBeGreaterThan(0);
    expect(locks.filter((l) => !l.includes('readOnly: true'))).toEqual([]);
  });
});
