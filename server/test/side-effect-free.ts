import { expect } from 'vitest';
import type { TestApp } from './helpers.ts';

/**
 * Marks methods + destinations side-effect-free as a platform administrator would (issue 46 row 5),
 * through the API: model-chosen calls there then go out without an approval. Replaces the list.
 */
export async function markSideEffectFree(
  t: TestApp,
  entries: { method: 'GET' | 'POST'; destination: string }[],
): Promise<void> {
  const admin = await t.createUser('admin');
  const res = await t.req({
    method: 'PUT',
    url: '/api/admin/outbound-allowlist',
    token: admin.token,
    body: { entries },
  });
  expect(res.statusCode, res.body).toBe(200);
}
