import { PASSWORD } from '../helpers.ts';
import { everyone, platformAdminOnly, type Row, uniqueEmail } from './matrix.ts';

/** Public configuration, signing in and out, the caller's own profile, and the platform admin's user management. */

/** Open to anyone: anonymous and waitlisted callers get what everyone gets. */
const open = (code: number) => ({ ...everyone(code), anonymous: code, waitlisted: code });

export const accountRows: Row[] = [
  // Single sign-on is public. The matrix's provider (MATRIX_ENV) is unreachable, so start and callback
  // send the browser back to the login page with the reason, and an unknown code is a 400; the
  // behaviour with a real provider is tested in modules/auth/oidc.test.ts.
  { op: 'GET /api/auth/oidc/start', target: () => ({ url: '/api/auth/oidc/start' }), expect: open(302) },
  {
    op: 'GET /api/auth/oidc/callback',
    target: () => ({ url: '/api/auth/oidc/callback?state=x&code=y' }),
    expect: open(302),
  },
  {
    op: 'POST /api/auth/oidc/exchange',
    target: () => ({ url: '/api/auth/oidc/exchange', body: { code: 'not-a-code' } }),
    expect: open(400),
  },
  {
    op: 'POST /api/auth/oidc/link',
    target: () => ({ url: '/api/auth/oidc/link', body: { code: 'not-a-code', password: 'whatever-1' } }),
    expect: open(400),
  },
  // The secret of an e-mailed link is the credential: anyone holding one may open it (an unknown one is 400).
  {
    op: 'POST /api/auth/email/confirm',
    target: () => ({ url: '/api/auth/email/confirm', body: { token: 'not-a-link-secret' } }),
    expect: open(400),
  },
  {
    // The matrix has no mail server: the answer says the link did not go out.
    op: 'POST /api/users/me/email-verification',
    target: () => ({ url: '/api/users/me/email-verification' }),
    expect: { ...everyone(200), waitlisted: 200 },
  },
  { op: 'GET /api/public-config', target: () => ({ url: '/api/public-config' }), expect: open(200) },
  {
    op: 'POST /api/auth/token',
    target: (w) => ({
      url: '/api/auth/token',
      payload: new URLSearchParams({ username: w.users.owner.email, password: PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    expect: open(200),
  },
  {
    op: 'POST /api/auth/logout',
    target: () => ({ url: '/api/auth/logout', freshSession: true }),
    expect: { ...everyone(204), waitlisted: 204 },
  },
  {
    op: 'POST /api/auth/logout-everywhere',
    // It ends every session of the account: each caller is a stand-in of the same level, made for it.
    target: async (w, caller) => ({
      url: '/api/auth/logout-everywhere',
      token: caller === 'anonymous' ? undefined : (await w.t.createUser(w.users[caller].user_level)).token,
    }),
    expect: everyone(204),
  },
  {
    op: 'POST /api/auth/stream-ticket',
    target: () => ({ url: '/api/auth/stream-ticket' }),
    expect: everyone(200),
  },
  {
    op: 'POST /api/users/register',
    target: () => ({
      url: '/api/users/register',
      body: { email: uniqueEmail('reg'), password: 'long-enough-1', first_name: 'New', last_name: 'Person' },
    }),
    expect: open(201),
  },
  {
    op: 'GET /api/users/me',
    target: () => ({ url: '/api/users/me' }),
    expect: { ...everyone(200), waitlisted: 200 },
  },
  {
    op: 'PATCH /api/users/me',
    target: () => ({ url: '/api/users/me', body: { behavior_notes: 'Brief me first.' } }),
    expect: { ...everyone(200), waitlisted: 200 },
  },
  { op: 'GET /api/users/', target: () => ({ url: '/api/users/' }), expect: platformAdminOnly(200) },
  {
    op: 'POST /api/users/',
    target: () => ({ url: '/api/users/', body: { email: uniqueEmail('made'), password: 'long-enough-1' } }),
    expect: platformAdminOnly(201),
  },
  {
    op: 'PATCH /api/users/{id}',
    target: async (w) => {
      const victim = await w.t.createUser('user');
      return { url: `/api/users/${victim.id}`, body: { user_level: 'ceo' } };
    },
    expect: platformAdminOnly(200),
  },
  {
    op: 'DELETE /api/users/{id}',
    target: async (w) => ({ url: `/api/users/${(await w.t.createUser('user')).id}` }),
    expect: platformAdminOnly(204),
  },
];
