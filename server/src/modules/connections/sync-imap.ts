import { randomUUID } from 'node:crypto';
import { ImapFlow, type MessageStructureObject } from 'imapflow';
import { type AddressObject, simpleParser } from 'mailparser';
import { nowIso } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { allowedAddress } from './connections.outbound.ts';
import {
  deleteMailBefore,
  deleteMailOfMailbox,
  insertMail,
  type MailMessageRow,
} from './connections.repository.ts';
import type { SyncJob } from './connections.sync-types.ts';

/**
 * IMAP, read-only (docs/decisions/248): the mailbox is opened with EXAMINE and read with SEARCH and
 * FETCH (BODY.PEEK); nothing here calls a command that writes (STORE, APPEND, COPY, MOVE, EXPUNGE).
 * `connections-read-only.test.ts` fails when this module names one of imapflow's writing methods.
 */
const MAILBOX = 'INBOX';
const BATCH = 50;

interface ImapState {
  uidvalidity: string;
  last_uid: number;
}

/** A signed-in session to the connection's server, at the address the outbound policy allowed. */
export async function imapSession(
  ctx: AppContext,
  host: string,
  port: number,
  tls: boolean,
  user: string,
  pass: string,
) {
  const address = await allowedAddress(ctx, host);
  const client = new ImapFlow({
    host: address,
    port,
    secure: tls,
    servername: tls ? host : undefined,
    auth: { user, pass },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 5 * 60_000,
  });
  // A dropped connection is reported by the command it breaks; the event itself must not crash the process.
  client.on('error', () => {});
  await client.connect();
  return client;
}

/**
 * Imports the mail of the last `mail_days` days not imported yet, then, when the server supports IDLE,
 * waits in IDLE for new mail until the sync interval is over (or a "sync now", or the signal), importing
 * each arrival at once. Without IDLE the worker polls at the interval. Returns whether it idled.
 */
export async function syncImap(job: SyncJob): Promise<{ idled: boolean }> {
  const { ctx, row } = job;
  const client = await imapSession(
    ctx,
    row.host,
    row.port ?? 993,
    row.tls !== 0,
    row.username ?? '',
    job.secret,
  );
  try {
    const lock = await client.getMailboxLock(MAILBOX, { readOnly: true });
    try {
      let state = await importNew(job, client, parseState(row.sync_state));
      if (!client.capabilities.has('IDLE')) return { idled: false };
      const until = Date.now() + ctx.config.connections.syncIntervalMs;
      while (!job.signal.aborted && Date.now() < until) {
        await waitForNews(job, client, until - Date.now());
        if (job.signal.aborted) break;
        state = await importNew(job, client, state);
      }
      return { idled: true };
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** IDLE until the server announces mail, someone asks for a sync, the time is up, or the job ends. */
async function waitForNews(job: SyncJob, client: ImapFlow, ms: number): Promise<void> {
  let done: () => void = () => {};
  const woken = new Promise<void>((resolve) => {
    done = resolve;
  });
  const timer = setTimeout(done, ms);
  client.once('exists', done);
  job.signal.addEventListener('abort', done, { once: true });
  void job.nudged().then(done);
  void client.idle().catch(done);
  await woken;
  clearTimeout(timer);
  client.off('exists', done);
  job.signal.removeEventListener('abort', done);
}

async function importNew(job: SyncJob, client: ImapFlow, before: ImapState | null): Promise<ImapState> {
  const { ctx, row } = job;
  const mailbox = client.mailbox;
  const uidvalidity = mailbox ? String(mailbox.uidValidity) : '0';
  let lastUid = before?.uidvalidity === uidvalidity ? before.last_uid : 0;
  // The server renumbered the mailbox: the old UIDs mean nothing, the mail is read again.
  if (before && before.uidvalidity !== uidvalidity) await deleteMailOfMailbox(ctx.db, row.id, MAILBOX);
  const since = new Date(Date.now() - (row.mail_days ?? 30) * 86_400_000);
  await deleteMailBefore(ctx.db, row.id, since.toISOString());
  const found = await client.search({ since, uid: `${lastUid + 1}:*` }, { uid: true });
  const uids = (found || []).filter((u) => u > lastUid).sort((a, b) => a - b);
  const notices: string[] = [];
  for (let i = 0; i < uids.length; i += BATCH) {
    if (job.signal.aborted) break;
    const batch = uids.slice(i, i + BATCH);
    const rows = await fetchBatch(job, client, batch, notices);
    await insertMail(ctx.db, rows);
    lastUid = batch[batch.length - 1];
  }
  const state = { uidvalidity, last_uid: lastUid };
  await job.synced(JSON.stringify(state), notices.length ? notices.join(' ') : null);
  return state;
}

async function fetchBatch(
  job: SyncJob,
  client: ImapFlow,
  uids: number[],
  notices: string[],
): Promise<MailMessageRow[]> {
  const maxBytes = job.ctx.config.connections.mailMaxBytes;
  const heads = [];
  for await (const m of client.fetch(uids, { uid: true, size: true, bodyStructure: true }, { uid: true })) {
    heads.push({ uid: m.uid, size: m.size ?? 0, structure: m.bodyStructure });
  }
  const rows: MailMessageRow[] = [];
  for (const head of heads) {
    if (head.size > maxBytes) {
      // Too large to read whole: its headers and attachment names are kept, its text is not.
      const headers = await client.fetchOne(String(head.uid), { uid: true, headers: true }, { uid: true });
      const parsed = await simpleParser(headers ? (headers.headers ?? Buffer.alloc(0)) : Buffer.alloc(0));
      rows.push(mailRow(job, head.uid, head.size, parsed, attachmentNames(head.structure), ''));
      notices.push(
        `A message of ${Math.round(head.size / 1024 / 1024)} MB is larger than ${Math.round(maxBytes / 1024 / 1024)} MB: it was kept without its text.`,
      );
      continue;
    }
    const msg = await client.fetchOne(String(head.uid), { uid: true, source: true }, { uid: true });
    if (msg === false || !msg.source) continue;
    const parsed = await simpleParser(msg.source, { skipImageLinks: true, skipTextToHtml: true });
    const names = parsed.attachments.map((a) => a.filename ?? '').filter(Boolean);
    rows.push(mailRow(job, head.uid, head.size, parsed, names, parsed.text ?? ''));
  }
  return rows;
}

type Parsed = Awaited<ReturnType<typeof simpleParser>>;

function mailRow(
  job: SyncJob,
  uid: number,
  size: number,
  p: Parsed,
  attachments: string[],
  text: string,
): MailMessageRow {
  const from = addresses(p.from)[0];
  return {
    id: randomUUID(),
    connection_id: job.row.id,
    user_id: job.row.user_id,
    // A message without a Message-ID is still one message: named by its place in the mailbox.
    message_id: (p.messageId ?? `<uid-${uid}@${job.row.host}>`).slice(0, 998),
    mailbox: MAILBOX,
    uid,
    from_address: from?.email ?? null,
    from_name: from?.name ?? null,
    to_addresses: JSON.stringify(addresses(p.to)),
    cc_addresses: JSON.stringify(addresses(p.cc)),
    subject: (p.subject ?? '').slice(0, 998),
    sent_at: p.date && !Number.isNaN(p.date.getTime()) ? p.date.toISOString() : null,
    in_reply_to: p.inReplyTo ?? null,
    // Plain text only: an HTML-only mail is reduced to its text by the parser; no HTML is ever stored.
    text_body: text.slice(0, 1_000_000),
    attachment_names: JSON.stringify(attachments.slice(0, 200)),
    size,
    imported_at: nowIso(),
  };
}

function addresses(a: AddressObject | AddressObject[] | undefined): { email: string; name: string | null }[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list
    .flatMap((o) => o.value)
    .filter((v) => v.address)
    .map((v) => ({ email: (v.address ?? '').toLowerCase(), name: v.name || null }))
    .slice(0, 500);
}

function attachmentNames(node: MessageStructureObject | undefined): string[] {
  if (!node) return [];
  const own = node.dispositionParameters?.filename ?? node.parameters?.name;
  return [
    ...(own && node.disposition === 'attachment' ? [own] : []),
    ...(node.childNodes ?? []).flatMap(attachmentNames),
  ];
}

function parseState(text: string | null): ImapState | null {
  try {
    const s = JSON.parse(text ?? '') as ImapState;
    return s && typeof s.uidvalidity === 'string' && typeof s.last_uid === 'number' ? s : null;
  } catch {
    return null;
  }
}
