import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { STALE_FILE_MS } from './files.service.ts';

/** One small text file as multipart/form-data. */
function multipart(name: string, content: string) {
  const boundary = `----cc${randomUUID().replace(/-/g, '')}`;
  const payload =
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
    `Content-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

apiSuite('stored files are removed with their owner, their conversation, and at start', () => {
  let t: TestApp;
  let admin: TestUser;
  let filesDir: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser('admin');
    filesDir = t.config.filesDir;
  });
  afterAll(() => t.close());

  const stored = () => readdirSync(filesDir).filter((n) => n !== '.tmp');
  const storageName = async (id: string) =>
    (await t.ctx.db.selectFrom('files').select('storage_name').where('id', '=', id).executeTakeFirstOrThrow())
      .storage_name;
  const upload = async (u: TestUser, name: string, conversationId?: string) => {
    const { payload, headers } = multipart(name, `content of ${name}`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/files${conversationId ? `?conversation_id=${conversationId}` : ''}`,
      headers: { ...headers, authorization: `Bearer ${u.token}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json()[0].id as string;
    return { id, storage: await storageName(id) };
  };

  it('deleting a conversation deletes the files attached in it, rows and bytes; other files stay', async () => {
    const u = await t.createUser('user');
    const conv = (
      await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })
    ).json().id as string;
    const attached = await upload(u, 'attached.txt', conv);
    const kept = await upload(u, 'kept.txt');
    expect(stored()).toEqual(expect.arrayContaining([attached.storage, kept.storage]));
    const del = await t.req({ method: 'DELETE', url: `/api/conversations/${conv}`, token: u.token });
    expect(del.statusCode).toBe(204);
    expect(stored()).not.toContain(attached.storage);
    expect(stored()).toContain(kept.storage);
    expect(
      (await t.req({ method: 'GET', url: `/api/files/${attached.id}`, token: u.token })).statusCode,
    ).toBe(404);
    expect((await t.req({ method: 'GET', url: `/api/files/${kept.id}`, token: u.token })).statusCode).toBe(
      200,
    );
  });

  it('deleting a user removes the bytes of every file they owned', async () => {
    const u = await t.createUser('user');
    const conv = (
      await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })
    ).json().id as string;
    const a = await upload(u, 'a.txt');
    const b = await upload(u, 'b.txt', conv);
    const del = await t.req({ method: 'DELETE', url: `/api/users/${u.id}`, token: admin.token });
    expect(del.statusCode).toBe(204);
    expect(stored()).not.toContain(a.storage);
    expect(stored()).not.toContain(b.storage);
  });

  it('a restart removes half uploads (.part) and bytes no row names, and keeps stored files', async () => {
    const u = await t.createUser('user');
    const kept = await upload(u, 'kept.txt');
    const old = new Date(Date.now() - STALE_FILE_MS - 60_000);
    const put = (file: string, stale: boolean) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, 'left over');
      if (stale) utimesSync(file, old, old);
      return file;
    };
    const stalePart = put(path.join(filesDir, '.tmp', `${randomUUID()}.part`), true);
    const freshPart = put(path.join(filesDir, '.tmp', `${randomUUID()}.part`), false);
    const staleOrphan = put(path.join(filesDir, randomUUID()), true);
    const freshOrphan = put(path.join(filesDir, randomUUID()), false);
    const other = put(path.join(filesDir, 'README.txt'), true);
    utimesSync(path.join(filesDir, kept.storage), old, old);

    // A second instance on the same database and FILES_DIR: what a restart does.
    const restarted = await buildApp(t.config, { serveWeb: false });
    await restarted.app.ready();
    await restarted.app.close();

    expect(existsSync(stalePart)).toBe(false);
    expect(existsSync(staleOrphan)).toBe(false);
    expect(existsSync(path.join(filesDir, kept.storage))).toBe(true);
    expect(existsSync(other)).toBe(true); // never a file the server did not name
    // On SQLite (one process) everything left over goes; on PostgreSQL the files might belong to an
    // upload another instance is writing right now, so only those untouched for an hour go.
    expect(existsSync(freshPart)).toBe(TEST_DB === 'postgres');
    expect(existsSync(freshOrphan)).toBe(TEST_DB === 'postgres');
  });
});
