import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './server.ts';

/** The web app keeps the access token here (spec section 9). */
export const TOKEN_KEY = 'authToken';
export const DASHBOARD = '/app/ceodashboard';

export interface DemoUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  level: 'admin' | 'ceo' | 'user';
}

/** The demo workspace the server seeds (organization "Northwind Ventures"). */
export const DEMO = {
  orgName: 'Northwind Ventures',
  admin: {
    email: 'admin@demo.example',
    password: DEMO_PASSWORD,
    firstName: 'Alex',
    lastName: 'Morgan',
    level: 'admin',
  },
  ceo: {
    email: 'ceo@demo.example',
    password: DEMO_PASSWORD,
    firstName: 'Olivia',
    lastName: 'Chen',
    level: 'ceo',
  },
  maya: {
    email: 'maya@demo.example',
    password: DEMO_PASSWORD,
    firstName: 'Maya',
    lastName: 'Patel',
    level: 'user',
  },
  leo: {
    email: 'leo@demo.example',
    password: DEMO_PASSWORD,
    firstName: 'Leo',
    lastName: 'Garcia',
    level: 'user',
  },
} satisfies Record<string, DemoUser | string>;

/** A unique address per call, so journeys never collide on the shared database. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@e2e.example`;
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** POST /api/auth/token (form-encoded) and return the access token. */
export async function apiToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post('/api/auth/token', { form: { username: email, password } });
  expect(res.status(), `sign-in of ${email}: ${await res.text()}`).toBe(200);
  const body = (await res.json()) as { access_token?: string };
  expect(body.access_token, 'access_token in the token response').toBeTruthy();
  return body.access_token!;
}

export interface ApiUser {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  user_level: string;
  profile?: { role: string | null; objectives: string[] };
}

export async function getMe(request: APIRequestContext, token: string): Promise<ApiUser> {
  const res = await request.get('/api/users/me', { headers: bearer(token) });
  expect(res.status(), `GET /api/users/me: ${await res.text()}`).toBe(200);
  return (await res.json()) as ApiUser;
}

/** GET /api/users/ as an admin, then the row with this e-mail. */
export async function findUserByEmail(request: APIRequestContext, adminToken: string, email: string) {
  const res = await request.get('/api/users/', { headers: bearer(adminToken), params: { search: email } });
  expect(res.status(), `GET /api/users/: ${await res.text()}`).toBe(200);
  const body = (await res.json()) as ApiUser[] | { items: ApiUser[] };
  const list = Array.isArray(body) ? body : body.items;
  return list.find((u) => u.email.toLowerCase() === email.toLowerCase());
}

export interface NewUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export function newUserData(prefix: string, firstName = 'Quinn'): NewUser {
  return { email: uniqueEmail(prefix), password: 'e2e-password-1', firstName, lastName: 'Tester' };
}

/** An approved account created by the demo admin through POST /api/users/. */
export async function createUserViaApi(
  request: APIRequestContext,
  user: NewUser,
  level: 'user' | 'ceo' | 'admin' | 'waitlisted' = 'user',
): Promise<ApiUser> {
  const adminToken = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
  const res = await request.post('/api/users/', {
    headers: bearer(adminToken),
    data: {
      email: user.email,
      password: user.password,
      first_name: user.firstName,
      last_name: user.lastName,
      user_level: level,
    },
  });
  expect(res.status(), `POST /api/users/: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as ApiUser;
}

/**
 * Signs in through the login screen and waits for the redirect away from /login
 * (to /app/ceodashboard by default).
 */
export async function loginViaUi(
  page: Page,
  email: string,
  password: string,
  opts: { expectPath?: string | RegExp | null; rememberMe?: boolean; gotoLogin?: boolean } = {},
): Promise<void> {
  if (opts.gotoLogin !== false) await page.goto('/login');
  await page.getByLabel(/^email/i).fill(email);
  await page.getByLabel(/^password/i).fill(password);
  if (opts.rememberMe) await page.getByLabel(/remember me/i).check();
  await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();
  const expected = opts.expectPath === undefined ? DASHBOARD : opts.expectPath;
  if (expected !== null)
    await expect(page).toHaveURL(typeof expected === 'string' ? pathRe(expected) : expected);
}

/**
 * Signs in through the API and puts the token where the web app keeps it, before the app's first
 * script runs. The token is written once per tab (later reloads keep whatever the app did with it).
 */
export async function loginViaApi(page: Page, email: string, password: string): Promise<string> {
  const token = await apiToken(page.request, email, password);
  await page.addInitScript(
    ({ key, value }) => {
      if (sessionStorage.getItem('e2e:token-set')) return;
      sessionStorage.setItem('e2e:token-set', '1');
      localStorage.setItem(key, value);
    },
    { key: TOKEN_KEY, value: token },
  );
  return token;
}

/** A fresh browser context and page, signed in through the API (for a second actor in a journey). */
export async function pageAs(browser: Browser, baseURL: string, email: string, password: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const token = await loginViaApi(page, email, password);
  return { context, page, token };
}

/** The token the page currently holds, or null. */
export function pageToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
}

/** Matches a URL whose path is exactly `path` (any query string or hash). */
export function pathRe(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^[a-z]+://[^/]+${escaped}/?(?:[?#].*)?$`);
}
