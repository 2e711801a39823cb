import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { searchWorkspace } from '../../ai/search/search.ts';
import { listFilesQuery } from './files.repository.ts';
import { conversationFileTexts, searchFileText } from './files.service.ts';
import { contentDisposition, detectType, sanitizeUploadName } from './files.sniff.ts';

interface FileItem {
  id: string;
  name: string;
  content_type: string;
  kind: string;
  size: number;
  user_id: string;
  owner: { id: string; name: string; email: string } | null;
  conversation_id: string | null;
  shared_org_ids: string[];
  shared_organizations: { id: string; name: string }[];
  can_edit: boolean;
  can_delete: boolean;
  can_share: boolean;
  created_at: string;
}

interface Part {
  name: string;
  content: Buffer | string;
  type?: string;
  field?: string;
}

/** A multipart/form-data body (built by hand so names can carry what browsers would refuse). */
function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----cc${randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.field ?? 'files'}"; filename="${p.name}"\r\n` +
          `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        'utf8',
      ),
      Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content, 'utf8'),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
]);

apiSuite('files', () => {
  let t: TestApp;
  let owner: TestUser; // ceo, admin of org A
  let member: TestUser; // member of org A
  let outsider: TestUser; // org B
  let waitlisted: TestUser;
  let orgA: string;
  let orgB: string;
  let filesDir: string;

  beforeAll(async () => {
    t = await createTestApp({ MAX_UPLOAD_MB: '1' });
    filesDir = t.config.filesDir;
    owner = await t.createUser('ceo', { first_name: 'Olivia' });
    member = await t.createUser('user', { first_name: 'Ben' });
    outsider = await t.createUser('ceo');
    waitlisted = await t.createUser('waitlisted');
    orgA = await t.createOrg(owner, 'Files Co');
    orgB = await t.createOrg(outsider, 'Elsewhere');
    await t.addToOrg(owner, orgA, member, 'user');
  });
  afterAll(() => t.close());

  const upload = (u: TestUser | undefined, parts: Part[], qs = '') => {
    const { payload, headers } = multipart(parts);
    if (u) headers.authorization = `Bearer ${u.token}`;
    return t.app.inject({ method: 'POST', url: `/api/files${qs}`, headers, payload });
  };
  const uploadOne = async (u: TestUser, p: Part): Promise<FileItem> => {
    const res = await upload(u, [p]);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()[0];
  };
  const get = (u: TestUser | undefined, url: string) => t.req({ method: 'GET', url, token: u?.token });
  const list = async (u: TestUser, qs = ''): Promise<FileItem[]> => {
    const res = await get(u, `/api/files${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const stored = () => readdirSync(filesDir).filter((n) => n !== '.tmp');
  const temps = () =>
    existsSync(path.join(filesDir, '.tmp')) ? readdirSync(path.join(filesDir, '.tmp')) : [];
  const rowCount = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('uploads several files in one request, stores them under generated names and extracts text', async () => {
    const res = await upload(owner, [
      { name: 'notes.md', content: '# Plan\nGrow revenue in Q3', type: 'text/markdown' },
      { name: 'logo.png', content: PNG, type: 'image/png' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [md, png]: FileItem[] = res.json();
    expect(md).toMatchObject({
      name: 'notes.md',
      kind: 'text',
      content_type: 'text/markdown; charset=utf-8',
      size: 25,
      user_id: owner.id,
      owner: { id: owner.id, name: 'Olivia Tester', email: owner.email },
      conversation_id: null,
      shared_org_ids: [],
      can_edit: true,
      can_delete: true,
      can_share: true,
    });
    expect(png).toMatchObject({
      name: 'logo.png',
      kind: 'image',
      content_type: 'image/png',
      size: PNG.length,
    });
    const rows = await t.ctx.db
      .selectFrom('files')
      .select(['id', 'storage_name', 'text_content', 'sha256'])
      .where('id', 'in', [md.id, png.id])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(md.id)?.text_content).toBe('# Plan\nGrow revenue in Q3');
    expect(byId.get(png.id)?.text_content).toBeNull();
    for (const r of rows) {
      expect(r.storage_name).toMatch(/^[0-9a-f-]{36}$/);
      expect(stored()).toContain(r.storage_name);
    }
    expect(readFileSync(path.join(filesDir, byId.get(png.id)?.storage_name ?? '')).equals(PNG)).toBe(true);
    expect(temps()).toEqual([]);
  });

  it('lists newest first, searches by name and pages', async () => {
    const a = await uploadOne(owner, { name: 'Quarterly Report.txt', content: 'q1' });
    const b = await uploadOne(owner, { name: 'budget_2026.csv', content: 'a,b\n1,2\n' });
    const all = await list(owner);
    expect(all.slice(0, 2).map((f) => f.id)).toEqual([b.id, a.id]);
    expect((await list(owner, '?search=quarterly')).map((f) => f.id)).toEqual([a.id]);
    // LIKE wildcards are literal
    expect((await list(owner, '?search=t_2')).map((f) => f.id)).toEqual([b.id]);
    expect((await list(owner, '?search=%25')).map((f) => f.id)).toEqual([]);
    expect((await list(owner, '?limit=1&skip=1')).map((f) => f.id)).toEqual([a.id]);
    expect((await get(owner, '/api/files?limit=500')).statusCode).toBe(422);
  });

  it('downloads as an attachment with an RFC 5987 name, nosniff and the stored bytes', async () => {
    const up = await uploadOne(owner, { name: 'Überblick.txt', content: 'hello world' });
    expect(up.name).toBe('Überblick.txt');
    const f = (
      await t.req({
        method: 'PATCH',
        url: `/api/files/${up.id}`,
        token: owner.token,
        body: { name: 'Überblick "Q3".txt' },
      })
    ).json() as FileItem;
    const res = await get(owner, `/api/files/${f.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('hello world');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-length']).toBe('11');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_berblick _Q3_.txt"; filename*=UTF-8''%C3%9Cberblick%20%22Q3%22.txt`,
    );
    expect(res.headers['cache-control']).toContain('no-store');
  });

  it('previews images, PDFs and text inline in a sandbox, anything else as an attachment', async () => {
    const png = await uploadOne(owner, { name: 'chart.png', content: PNG });
    const pdf = await uploadOne(owner, { name: 'deck.pdf', content: '%PDF-1.4\n%…\n' });
    const zip = await uploadOne(owner, {
      name: 'bundle.zip',
      content: Buffer.from([0x50, 0x4b, 3, 4, 1, 2]),
    });
    expect(pdf).toMatchObject({ kind: 'pdf', content_type: 'application/pdf' });
    expect(zip).toMatchObject({ kind: 'other', content_type: 'application/zip' });
    for (const f of [png, pdf]) {
      const res = await get(owner, `/api/files/${f.id}/preview`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^inline; /);
      expect(res.headers['content-security-policy']).toContain('sandbox');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    const res = await get(owner, `/api/files/${zip.id}/preview`);
    expect(res.headers['content-disposition']).toMatch(/^attachment; /);
  });

  it('renames: owner only, names without slashes or control characters', async () => {
    const f = await uploadOne(owner, { name: 'draft.txt', content: 'x' });
    const patch = (u: TestUser, body: unknown) =>
      t.req({ method: 'PATCH', url: `/api/files/${f.id}`, token: u.token, body });
    const ok = await patch(owner, { name: '  final.txt ' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().name).toBe('final.txt');
    for (const name of ['../x.txt', 'a/b', 'a\\b', 'nul\u0000.txt', '', '..']) {
      const bad = await patch(owner, { name });
      expect(bad.statusCode, name).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'name']);
    }
    // An unknown field is refused; the owner id read back in a round-trip body is ignored.
    expect((await patch(owner, { name: 'x', no_such_field: 1 })).statusCode).toBe(422);
    expect((await get(owner, `/api/files/${f.id}`)).json().name).toBe('final.txt');
    const echoed = await patch(owner, { name: 'final.txt', user_id: outsider.id });
    expect(echoed.statusCode).toBe(200);
    expect(echoed.json().user_id).toBe(owner.id);
  });

  it('shares with organizations: members see and download it, outsiders get 404', async () => {
    const f = await uploadOne(owner, { name: 'board-pack.txt', content: 'secret plan' });
    expect((await list(member)).map((x) => x.id)).not.toContain(f.id);
    expect((await get(member, `/api/files/${f.id}/download`)).statusCode).toBe(404);

    const bad = await t.req({
      method: 'PATCH',
      url: `/api/files/${f.id}`,
      token: owner.token,
      body: { shared_org_ids: [orgB] },
    });
    expect(bad.statusCode).toBe(403);

    const shared = await t.req({
      method: 'PATCH',
      url: `/api/files/${f.id}`,
      token: owner.token,
      body: { shared_org_ids: [orgA] },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toMatchObject({
      shared_org_ids: [orgA],
      shared_organizations: [{ id: orgA, name: 'Files Co' }],
    });

    const seen = (await list(member)).find((x) => x.id === f.id);
    expect(seen).toMatchObject({ can_edit: false, can_delete: false, can_share: false, user_id: owner.id });
    const dl = await get(member, `/api/files/${f.id}/download`);
    expect(dl.statusCode).toBe(200);
    expect(dl.body).toBe('secret plan');
    // a member reads; only the owner changes it
    const rename = await t.req({
      method: 'PATCH',
      url: `/api/files/${f.id}`,
      token: member.token,
      body: { name: 'mine.txt' },
    });
    expect(rename.statusCode).toBe(403);
    expect(
      (await t.req({ method: 'DELETE', url: `/api/files/${f.id}`, token: member.token })).statusCode,
    ).toBe(403);
    // sending the same set back is not a change
    const same = await t.req({
      method: 'PATCH',
      url: `/api/files/${f.id}`,
      token: member.token,
      body: { shared_org_ids: [orgA] },
    });
    expect(same.statusCode).toBe(200);

    // the outsider cannot tell it exists, whatever the route
    for (const url of [`/api/files/${f.id}`, `/api/files/${f.id}/download`, `/api/files/${f.id}/preview`]) {
      const res = await get(outsider, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'File not found' });
    }
    expect((await list(outsider)).map((x) => x.id)).not.toContain(f.id);
    for (const [method, body] of [
      ['PATCH', { name: 'x.txt' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.req({ method, url: `/api/files/${f.id}`, token: outsider.token, body });
      expect(res.statusCode, method).toBe(404);
    }

    // unsharing hides it again
    await t.req({
      method: 'PATCH',
      url: `/api/files/${f.id}`,
      token: owner.token,
      body: { shared_org_ids: [] },
    });
    expect((await get(member, `/api/files/${f.id}`)).statusCode).toBe(404);
  });

  it('refuses waitlisted users (403) and anonymous callers (401) on every route', async () => {
    const f = await uploadOne(owner, { name: 'w.txt', content: 'w' });
    const routes: [string, string][] = [
      ['GET', '/api/files'],
      ['GET', `/api/files/${f.id}`],
      ['GET', `/api/files/${f.id}/download`],
      ['GET', `/api/files/${f.id}/preview`],
      ['PATCH', `/api/files/${f.id}`],
      ['DELETE', `/api/files/${f.id}`],
    ];
    for (const [method, url] of routes) {
      const w = await t.req({
        method: method as 'GET',
        url,
        token: waitlisted.token,
        body: method === 'PATCH' ? {} : undefined,
      });
      expect(w.statusCode, `${method} ${url}`).toBe(403);
      const a = await t.req({ method: method as 'GET', url, body: method === 'PATCH' ? {} : undefined });
      expect(a.statusCode, `${method} ${url}`).toBe(401);
      expect(a.json().detail).toBeTypeOf('string');
    }
    expect((await upload(waitlisted, [{ name: 'a.txt', content: 'a' }])).statusCode).toBe(403);
    expect((await upload(undefined, [{ name: 'a.txt', content: 'a' }])).statusCode).toBe(401);
  });

  it('deletes the row and the stored bytes (owner only)', async () => {
    const f = await uploadOne(owner, { name: 'gone.txt', content: 'bye' });
    const row = await t.ctx.db
      .selectFrom('files')
      .select('storage_name')
      .where('id', '=', f.id)
      .executeTakeFirstOrThrow();
    expect(stored()).toContain(row.storage_name);
    const res = await t.req({ method: 'DELETE', url: `/api/files/${f.id}`, token: owner.token });
    expect(res.statusCode).toBe(204);
    expect(stored()).not.toContain(row.storage_name);
    expect((await get(owner, `/api/files/${f.id}`)).statusCode).toBe(404);
    expect((await get(owner, `/api/files/${f.id}/download`)).statusCode).toBe(404);
  });

  describe('bad uploads', () => {
    it('refuses an empty file with 400 and keeps nothing (also its good companions)', async () => {
      const before = { rows: await rowCount(), files: stored().length };
      const res = await upload(owner, [
        { name: 'good.txt', content: 'fine' },
        { name: 'empty.txt', content: '' },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: '"empty.txt" is empty.' });
      expect(await rowCount()).toBe(before.rows);
      expect(stored().length).toBe(before.files);
      expect(temps()).toEqual([]);
    });

    it('refuses a file beyond MAX_UPLOAD_MB with 413 and {detail}', async () => {
      const before = { rows: await rowCount(), files: stored().length };
      const res = await upload(owner, [{ name: 'big.bin', content: Buffer.alloc(1024 * 1024 + 1, 7) }]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ detail: '"big.bin" is larger than the 1 MB upload limit.' });
      expect(await rowCount()).toBe(before.rows);
      expect(stored().length).toBe(before.files);
      expect(temps()).toEqual([]);
      // exactly at the limit is fine
      const ok = await upload(owner, [{ name: 'edge.bin', content: Buffer.alloc(1024 * 1024, 7) }]);
      expect(ok.statusCode, ok.body).toBe(201);
    });

    it('refuses too many files, no files and non-multipart bodies with clear 4xx', async () => {
      const many = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, content: 'x' }));
      const res = await upload(owner, many);
      expect(res.statusCode).toBe(413);
      expect(res.json().detail).toBe('At most 20 files can be uploaded at once.');
      expect(temps()).toEqual([]);

      const none = await t.app.inject({
        method: 'POST',
        url: '/api/files',
        headers: {
          authorization: `Bearer ${owner.token}`,
          'content-type': 'multipart/form-data; boundary=x',
        },
        payload: '--x--\r\n',
      });
      expect(none.statusCode).toBe(400);
      expect(none.json().detail).toBe('No file was uploaded.');

      const json = await t.req({
        method: 'POST',
        url: '/api/files',
        token: owner.token,
        body: { name: 'x' },
      });
      expect(json.statusCode).toBe(400);
      expect(json.json().detail).toBe('Send the files as multipart/form-data.');
    });

    it('stores path-traversal names safely: the last segment as the name, a generated path', async () => {
      const before = new Set(stored());
      const [a, b, c] = (
        await upload(owner, [
          { name: '../../etc/passwd', content: 'root:x:0:0' },
          { name: '..\\..\\windows\\win.ini', content: '[x]' },
          { name: 'in\u0001ject\u0007.txt', content: 'ctl' },
        ])
      ).json() as FileItem[];
      expect([a.name, b.name, c.name]).toEqual(['passwd', 'win.ini', 'inject.txt']);
      const added = stored().filter((n) => !before.has(n));
      expect(added).toHaveLength(3);
      for (const n of added) expect(n).toMatch(/^[0-9a-f-]{36}$/);
      expect(existsSync(path.join(filesDir, '..', 'etc'))).toBe(false);

      const dotsOnly = await upload(owner, [{ name: '../..', content: 'x' }]);
      expect(dotsOnly.statusCode).toBe(400);
      expect(dotsOnly.json().detail).toMatch(/needs a name/);
      expect(temps()).toEqual([]);
    });

    it('serves a spoofed content type as an attachment with a safe type', async () => {
      const html = '<html><script>alert(document.cookie)</script></html>';
      const [fakePng, page, svg] = (
        await upload(owner, [
          { name: 'photo.png', content: html, type: 'image/png' },
          { name: 'page.html', content: html, type: 'text/html' },
          {
            name: 'icon.svg',
            content: '<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>',
            type: 'image/svg+xml',
          },
        ])
      ).json() as FileItem[];
      for (const f of [fakePng, page, svg]) {
        expect(f).toMatchObject({ kind: 'other', content_type: 'application/octet-stream' });
        for (const route of ['download', 'preview']) {
          const res = await get(owner, `/api/files/${f.id}/${route}`);
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toBe('application/octet-stream');
          expect(res.headers['content-disposition']).toMatch(/^attachment; /);
          expect(res.headers['x-content-type-options']).toBe('nosniff');
        }
      }
      // a "text" file that is binary is not served as text either
      const bin = await uploadOne(owner, { name: 'notes.txt', content: Buffer.from([0, 1, 2, 0xff]) });
      expect(bin.content_type).toBe('application/octet-stream');
    });
  });

  it('lists attachments of a conversation the caller owns (404 for others) and checks ?conversation_id=', async () => {
    const conv = await t.req({
      method: 'POST',
      url: '/api/conversations/',
      token: owner.token,
      body: { name: 'Q3' },
    });
    expect(conv.statusCode, conv.body).toBe(201);
    const convId: string = conv.json().id;
    const res = await upload(
      owner,
      [{ name: 'context.txt', content: 'pricing notes' }],
      `?conversation_id=${convId}`,
    );
    expect(res.statusCode, res.body).toBe(201);
    const f: FileItem = res.json()[0];
    expect(f.conversation_id).toBe(convId);
    await uploadOne(owner, { name: 'unrelated.txt', content: 'u' });

    const att = await get(owner, `/api/conversations/${convId}/attachments`);
    expect(att.statusCode).toBe(200);
    expect((att.json() as FileItem[]).map((x) => x.id)).toEqual([f.id]);

    expect((await get(member, `/api/conversations/${convId}/attachments`)).statusCode).toBe(404);
    expect((await get(waitlisted, `/api/conversations/${convId}/attachments`)).statusCode).toBe(403);
    expect((await get(undefined, `/api/conversations/${convId}/attachments`)).statusCode).toBe(401);
    const foreign = await upload(member, [{ name: 'x.txt', content: 'x' }], `?conversation_id=${convId}`);
    expect(foreign.statusCode).toBe(404);
    expect(temps()).toEqual([]);
    const texts = await conversationFileTexts(t.ctx, { id: owner.id } as never, convId);
    expect(texts).toEqual([{ id: f.id, name: 'context.txt', text: 'pricing notes' }]);
  });

  it('indexes extracted text for the internal search, with the file visibility rules', async () => {
    const f = await uploadOne(owner, {
      name: 'pricing-memo.md',
      content: 'Zanzibar expansion pricing floor',
    });
    const asUser = (u: TestUser) => ({ id: u.id });
    const hits = await searchWorkspace(t.ctx, asUser(owner), 'zanzibar');
    expect(hits).toContainEqual(
      expect.objectContaining({ type: 'file', id: f.id, title: 'pricing-memo.md' }),
    );
    expect((await searchWorkspace(t.ctx, asUser(member), 'zanzibar')).map((h) => h.id)).not.toContain(f.id);
    await t.req({
      method: 'PATCH',
      url: `/api/files/${f.id}`,
      token: owner.token,
      body: { shared_org_ids: [orgA] },
    });
    expect((await searchWorkspace(t.ctx, asUser(member), 'zanzibar')).map((h) => h.id)).toContain(f.id);
    expect((await searchWorkspace(t.ctx, asUser(outsider), 'zanzibar')).map((h) => h.id)).not.toContain(f.id);
    // renames re-index; deletes leave nothing behind
    await t.req({
      method: 'PATCH',
      url: `/api/files/${f.id}`,
      token: owner.token,
      body: { name: 'memo.md' },
    });
    expect((await searchWorkspace(t.ctx, asUser(owner), 'zanzibar')).find((h) => h.id === f.id)?.title).toBe(
      'memo.md',
    );
    const viaService = await searchFileText(t.ctx, { ...asUser(owner) } as never, 'ZANZIBAR');
    expect(viaService.map((x) => x.id)).toContain(f.id);
    await t.req({ method: 'DELETE', url: `/api/files/${f.id}`, token: owner.token });
    expect((await searchWorkspace(t.ctx, asUser(owner), 'zanzibar')).map((h) => h.id)).not.toContain(f.id);
  });

  it.runIf(TEST_DB === 'sqlite')('serves the list from indexes', async () => {
    const plan = await sqlitePlan(
      t.ctx.db,
      listFilesQuery(t.ctx.db, { userId: owner.id, orgIds: [orgA], skip: 0, limit: 50 }),
    );
    expectIndexedPlan(plan, 'files');
  });

  it("deleting an account (admin) removes its files' rows and their stored bytes, and no one else's", async () => {
    const leaving = await t.createUser('user', { first_name: 'Leaving' });
    const mine = await uploadOne(leaving, { name: 'leaving.txt', content: 'bye', type: 'text/plain' });
    const kept = await uploadOne(owner, { name: 'kept.txt', content: 'stay', type: 'text/plain' });
    const nameOf = async (id: string) =>
      (await t.ctx.db.selectFrom('files').select('storage_name').where('id', '=', id).executeTakeFirst())
        ?.storage_name;
    const leavingName = await nameOf(mine.id);
    const keptName = await nameOf(kept.id);
    expect(stored()).toContain(leavingName);
    const admin = await t.createUser('admin');
    const del = await t.req({ method: 'DELETE', url: `/api/users/${leaving.id}`, token: admin.token });
    expect(del.statusCode, del.body).toBe(204);
    expect(await nameOf(mine.id)).toBeUndefined();
    expect(stored()).not.toContain(leavingName);
    expect(stored()).toContain(keptName);
  });
});

describe('file helpers', () => {
  it('sanitizes upload names', () => {
    expect(sanitizeUploadName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeUploadName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(sanitizeUploadName('a\u0000b.txt')).toBe('ab.txt');
    expect(sanitizeUploadName('..')).toBeNull();
    expect(sanitizeUploadName('dir/')).toBeNull();
    expect(sanitizeUploadName(undefined)).toBeNull();
    const long = sanitizeUploadName(`${'x'.repeat(400)}.pdf`);
    expect(long?.length).toBe(255);
    expect(long?.endsWith('.pdf')).toBe(true);
  });

  it('detects types from bytes, never from a claim', () => {
    expect(detectType(PNG, 'x.jpg', true)).toEqual({ contentType: 'image/png', kind: 'image' });
    expect(detectType(Buffer.from('%PDF-1.7'), 'x.txt', true).kind).toBe('pdf');
    expect(detectType(Buffer.from('{"a":1}'), 'a.json', true).contentType).toBe(
      'application/json; charset=utf-8',
    );
    expect(detectType(Buffer.from('<html>'), 'a.html', true).contentType).toBe('application/octet-stream');
    // a prefix cut inside a multi-byte character is still text
    expect(detectType(Buffer.from('héllo').subarray(0, 2), 'a.txt', false).kind).toBe('text');
  });

  it('writes Content-Disposition that cannot break out of the header', () => {
    expect(contentDisposition('attachment', 'a";\r\nx.txt')).toBe(
      `attachment; filename="a____x.txt"; filename*=UTF-8''a%22%3B%0D%0Ax.txt`,
    );
  });
});
