import { TOKEN_STORAGE_KEY } from '@cc/contract';
import { notify } from './toast';

/**
 * The web app's only fetch wrapper. It owns the access token (localStorage `authToken`), the error
 * shape (`ApiError` with `status` and `data`, message from `detail`) and the session rule: a 401 or 403
 * answer to a request that carried a token clears the token, fires the session-invalid event, shows
 * "Session Expired" and so logs the user out.
 */

export const SESSION_INVALID_EVENT = 'cc:session-invalid';
const TOKEN_CHANGED_EVENT = 'cc:token-changed';

export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;

  constructor(message: string, status: number, data: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

// ---------------------------------------------------------------------------------------------
// Token storage

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
  window.dispatchEvent(new Event(TOKEN_CHANGED_EVENT));
}

export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // storage unavailable: nothing to clear
  }
  window.dispatchEvent(new Event(TOKEN_CHANGED_EVENT));
}

/**
 * Calls `onChange` whenever the token changes in this tab or in another one (the `storage` event
 * only fires for other tabs; `key` is null when another tab cleared the whole storage).
 */
export function subscribeToken(onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === TOKEN_STORAGE_KEY || e.key === null) onChange();
  };
  window.addEventListener(TOKEN_CHANGED_EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(TOKEN_CHANGED_EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * The message of an error body: `detail` when it is a string, the first item's `msg` when it is a
 * list of field errors, else the body as JSON text, else the status text.
 */
export function errorMessageFrom(data: unknown, statusText: string, status?: number): string {
  if (data && typeof data === 'object' && 'detail' in data) {
    const detail = (data as { detail: unknown }).detail;
    if (typeof detail === 'string' && detail) return detail;
    if (Array.isArray(detail) && detail.length > 0) {
      const first = detail[0] as { msg?: unknown } | string;
      if (typeof first === 'string' && first) return first;
      if (first && typeof first === 'object' && typeof first.msg === 'string' && first.msg) return first.msg;
    }
  }
  if (data !== undefined && data !== null && data !== '') {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    if (text && text !== '{}') return text;
  }
  if (statusText) return statusText;
  return status ? `Request failed with status ${status}` : 'Request failed';
}

/** The server's own message for a failed call, when there is one (used to add detail to toasts). */
export function serverDetail(err: unknown): string | undefined {
  if (!isApiError(err)) return undefined;
  const data = err.data;
  if (data && typeof data === 'object' && 'detail' in data) return err.message;
  return undefined;
}

/**
 * One toast for one ended session: every request that finds it ended, and the profile fetch's own
 * "Session Issue" (lib/auth.tsx), use this id, so the latest replaces the others instead of stacking.
 */
export const SESSION_ENDED_TOAST_ID = 'session-ended';

/** The session rule's effect (also used by lib/upload.ts): clear the token, log out, say why. */
export function onSessionInvalid(): void {
  clearToken();
  window.dispatchEvent(new Event(SESSION_INVALID_EVENT));
  notify.error('Session Expired', 'Please log in again.', { id: SESSION_ENDED_TOAST_ID });
}

/**
 * The ETag the server gives a record: its version, `updated_at`. Sent back as `If-Match` so a save
 * never overwrites a change made since the form was opened.
 */
export const versionOf = (record: { updated_at: string }) => `"${record.updated_at}"`;

/** The record changed since the form read it (412): not a session problem, the form shows both. */
export const isStaleVersion = (err: unknown) => isApiError(err) && err.status === 412;

// ---------------------------------------------------------------------------------------------
// Requests

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A JSON body. */
  json?: unknown;
  /** A form-encoded body (only the token endpoint uses one). */
  form?: Record<string, string>;
  query?: Query;
  /** Send this token instead of the stored one. */
  token?: string;
  /** Send no Authorization header at all. */
  anonymous?: boolean;
  /** The record version the write applies to (`If-Match`; see versionOf): a newer one answers 412. */
  ifMatch?: string;
  /** Do not apply the 401/403 session rule (the login call, the logout call). */
  skipSessionRule?: boolean;
  signal?: AbortSignal;
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** A response body: JSON when it parses, else the text (undefined when empty). */
export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function api<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  // The client header lets the activity ledger tell the web app's writes (via "ui") from API clients'.
  const headers: Record<string, string> = { Accept: 'application/json', 'X-CC-Client': 'web' };
  const token = opts.anonymous ? null : (opts.token ?? getToken());
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.ifMatch) headers['If-Match'] = opts.ifMatch;

  let body: BodyInit | undefined;
  if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }

  const res = await fetch(withQuery(path, opts.query), {
    method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: opts.signal,
  });

  const data = res.status === 204 ? undefined : parseBody(await res.text());
  if (!res.ok) {
    // Only the session this request ran under is invalidated: an answer to a request sent with an older
    // token (the user has since signed in again) leaves the new session alone.
    const sessionRejected = (res.status === 401 || res.status === 403) && token && !opts.skipSessionRule;
    if (sessionRejected && getToken() === token) onSessionInvalid();
    throw new ApiError(errorMessageFrom(data, res.statusText, res.status), res.status, data);
  }
  return data as T;
}
