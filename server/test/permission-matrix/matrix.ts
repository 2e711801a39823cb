import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { TestApp, TestUser } from '../helpers.ts';

/**
 * Who calls, as a role and its relation to the record (always made in tenant A, see `World`):
 * - anonymous, waitlisted: no relation (refused before any record is looked up);
 * - owner: a plain `user` member of org A who made the record (for domains only a ceo may create
 *   in, the record is the ceo's: see the domain file);
 * - member: another plain `user` member of org A (same org);
 * - manager: a `user` with the org level `manager` in org A (same org);
 * - orgAdmin: a `user` with the org level `admin` in org A (same org);
 * - ceo: the ceo of tenant A, who created org A (org `admin` member; same org);
 * - ceoMember: a global `ceo` who is only a plain `user` member of org A (same org): org rights come
 *   from the membership, so this caller has a member's rights there, not a ceo's;
 * - otherCeo: the ceo of tenant B, who runs org B (other org);
 * - platformAdmin: the platform administrator, a member of no organization (other org).
 */
export const CALLERS = [
  'anonymous',
  'waitlisted',
  'owner',
  'member',
  'manager',
  'orgAdmin',
  'ceo',
  'ceoMember',
  'otherCeo',
  'platformAdmin',
] as const;
export type Caller = (typeof CALLERS)[number];
export type Account = Exclude<Caller, 'anonymous'>;
export type Expected = Record<Caller, number>;

export interface World {
  t: TestApp;
  users: Record<Account, TestUser>;
  orgA: string;
  orgB: string;
  /** The app over real HTTP (for event streams), started on first use. */
  baseUrl(): Promise<string>;
  /** A fixture built once per world and shared by the rows that only read it. */
  once<T>(key: string, build: () => Promise<T>): Promise<T>;
}

/** One request of a row: made against a record its fixture created. */
export interface Target {
  url: string;
  /** JSON body */
  body?: unknown;
  /** A raw body with its own headers (multipart uploads, forms). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
  /** Sign the caller in again and use that session (for calls that end the session they use). */
  freshSession?: boolean;
  /** Call with this token instead of the caller's (calls that end every session of the account). */
  token?: string;
}

export interface Row {
  /** `METHOD /path` exactly as in /api/openapi.json. */
  op: string;
  /** Builds the record(s) the call needs as their owner and returns the request. */
  target: (w: World, caller: Caller) => Promise<Target> | Target;
  /** The status every caller gets. */
  expect: Expected;
  /**
   * A fresh target for every caller (default: every method but GET), so one caller's success does
   * not change what the next one sees.
   */
  fresh?: boolean;
  /** An event stream: called over real HTTP, the status read from the headers, then hung up. */
  stream?: boolean;
}

// ---- expected statuses: presets for the usual shapes, spread and override the exceptions ----

const GATE = { anonymous: 401, waitlisted: 403 };

/** Every signed-in, approved caller gets `code`. */
export const everyone = (code: number): Expected => ({
  ...GATE,
  owner: code,
  member: code,
  manager: code,
  orgAdmin: code,
  ceo: code,
  ceoMember: code,
  otherCeo: code,
  platformAdmin: code,
});

/** The owner gets `code`; everyone else `others` (404: a private record does not exist for them). */
export const ownerOnly = (code: number, others = 404): Expected => ({ ...everyone(others), owner: code });

/** Everyone in org A gets `code`; tenant B and the platform admin, who are not members, 404. */
export const orgWide = (code: number): Expected => ({
  ...everyone(404),
  owner: code,
  member: code,
  manager: code,
  orgAdmin: code,
  ceo: code,
  ceoMember: code,
});

/** Org A's editors (the owner, managers, admins, its ceo) get `code`; plain members (a ceo among them) only read: 403. */
export const orgEditors = (code: number): Expected => ({ ...orgWide(code), member: 403, ceoMember: 403 });

/** Only the platform administrator gets `code`; everyone else 403. */
export const platformAdminOnly = (code: number): Expected => ({ ...everyone(403), platformAdmin: code });

// ---- the world and the calls ----

/** Tenant A (org A: owner, member, manager, org admin, its ceo, a ceo as plain member), tenant B (org B, its ceo), a waitlisted account, a platform admin. */
export async function buildWorld(t: TestApp): Promise<World> {
  const users = {
    waitlisted: await t.createUser('waitlisted'),
    owner: await t.createUser('user'),
    member: await t.createUser('user'),
    manager: await t.createUser('user'),
    orgAdmin: await t.createUser('user'),
    ceo: await t.createUser('ceo'),
    ceoMember: await t.createUser('ceo'),
    otherCeo: await t.createUser('ceo'),
    platformAdmin: await t.createUser('admin'),
  } satisfies Record<Account, TestUser>;
  const orgA = await t.createOrg(users.ceo, 'Tenant A');
  await t.addToOrg(users.ceo, orgA, users.owner, 'user');
  await t.addToOrg(users.ceo, orgA, users.member, 'user');
  await t.addToOrg(users.ceo, orgA, users.manager, 'manager');
  await t.addToOrg(users.ceo, orgA, users.orgAdmin, 'admin');
  await t.addToOrg(users.ceo, orgA, users.ceoMember, 'user');
  const orgB = await t.createOrg(users.otherCeo, 'Tenant B');
  let base: Promise<string> | undefined;
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, build: () => Promise<T>) => {
    if (!memo.has(key)) memo.set(key, build());
    return memo.get(key) as Promise<T>;
  };
  return { t, users, orgA, orgB, baseUrl: () => (base ??= t.listen()), once };
}

/** A request as `who`; fails loudly when the fixture itself is refused (the row would test nothing). */
export async function made<T = { id: string }>(
  w: World,
  who: Account,
  method: 'POST' | 'PUT' | 'PATCH',
  url: string,
  body?: unknown,
): Promise<T> {
  const res = await w.t.req({ method, url, token: w.users[who].token, body });
  if (res.statusCode >= 300)
    throw new Error(`fixture ${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

export const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@test.example`;

/** The path template of an operation as a pattern its URLs match (ids in place of `{…}`, an optional query). */
export function urlPattern(op: string): RegExp {
  const path = op.slice(op.indexOf(' ') + 1).replace(/\/$/, '');
  const literal = path.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('[^/?]+')}/?(\\?.*)?$`);
}

async function send(w: World, row: Row, target: Target, token: string | undefined): Promise<number> {
  const method = row.op.slice(0, row.op.indexOf(' ')) as InjectOptions['method'];
  const headers: Record<string, string> = { ...target.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (row.stream) {
    const stop = new AbortController();
    const res = await fetch(`${await w.baseUrl()}${target.url}`, {
      method: String(method),
      headers,
      signal: stop.signal,
    });
    stop.abort();
    return res.status;
  }
  const payload = target.payload ?? (target.body === undefined ? undefined : (target.body as object));
  const res = await w.t.app.inject({ method, url: target.url, headers, ...(payload ? { payload } : {}) });
  return res.statusCode;
}

/** Calls the row's operation as every caller and returns the statuses they got. */
export async function statusesOf(w: World, row: Row): Promise<Expected> {
  const fresh = row.fresh ?? !row.op.startsWith('GET ');
  let shared: Target | undefined;
  const got = {} as Expected;
  for (const caller of CALLERS) {
    if (!shared || fresh) shared = await row.target(w, caller);
    const target = shared;
    if (!urlPattern(row.op).test(target.url)) {
      throw new Error(`row ${row.op} calls ${target.url}, another operation`);
    }
    const token =
      caller === 'anonymous'
        ? undefined
        : target.token
          ? target.token
          : target.freshSession
            ? await w.t.login(w.users[caller].email)
            : w.users[caller].token;
    got[caller] = await send(w, row, target, token);
  }
  return got;
}
