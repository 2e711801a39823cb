import { randomUUID } from 'node:crypto';
import { everyone, orgWide, type Row, type Target, type World } from './matrix.ts';

/**
 * Files: the owner uploads a small PNG and shares it with org A. Members read and download it;
 * renaming, sharing and deleting are the owner's.
 */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000d4944415478da63f8cfc0f01f0005000201ff5b0d2ba90000000049454e44ae426082', 'hex'),
]);

/** A multipart/form-data upload of one PNG. */
function upload(url: string): Target {
  const boundary = `----cc${randomUUID().replace(/-/g, '')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="chart.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { url, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function sharedFile(w: World): Promise<string> {
  const { payload, headers } = upload('/api/files');
  const res = await w.t.app.inject({
    method: 'POST',
    url: '/api/files',
    headers: { ...headers, authorization: `Bearer ${w.users.owner.token}` },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`fixture upload: ${res.statusCode} ${res.body}`);
  const id = (res.json() as { id: string }[])[0].id;
  const shared = await w.t.req({
    method: 'PATCH',
    url: `/api/files/${id}`,
    token: w.users.owner.token,
    body: { shared_org_ids: [w.orgA] },
  });
  if (shared.statusCode !== 200) throw new Error(`fixture share: ${shared.statusCode} ${shared.body}`);
  return id;
}

export const fileRows: Row[] = [
  { op: 'GET /api/files', target: () => ({ url: '/api/files' }), expect: everyone(200) },
  { op: 'POST /api/files', target: () => upload('/api/files'), expect: everyone(201) },
  {
    op: 'GET /api/files/{id}',
    target: async (w) => ({ url: `/api/files/${await sharedFile(w)}` }),
    expect: orgWide(200),
  },
  {
    op: 'PATCH /api/files/{id}',
    target: async (w) => ({ url: `/api/files/${await sharedFile(w)}`, body: { name: 'renamed.png' } }),
    expect: { ...orgWide(403), owner: 200 },
  },
  {
    op: 'DELETE /api/files/{id}',
    target: async (w) => ({ url: `/api/files/${await sharedFile(w)}` }),
    expect: { ...orgWide(403), owner: 204 },
  },
  {
    op: 'GET /api/files/{id}/download',
    target: async (w) => ({ url: `/api/files/${await sharedFile(w)}/download` }),
    expect: orgWide(200),
  },
  {
    op: 'GET /api/files/{id}/preview',
    target: async (w) => ({ url: `/api/files/${await sharedFile(w)}/preview` }),
    expect: orgWide(200),
  },
];
