import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Allowlist, isBlockedAddress, normalizeIp } from './ip-policy.ts';

/** The URL was refused by policy (scheme, address, redirect); never retried. */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
}

/** The response broke a limit (time, size, redirects). */
export class FetchLimitError extends Error {
  override name = 'FetchLimitError';
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export interface SafeFetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Whole exchange, redirects included (default 10 s). */
  timeoutMs?: number;
  /** Largest response body (default 1 MiB). */
  maxBytes?: number;
  maxRedirects?: number;
  /** AI_HTTP_ALLOWLIST entries. */
  allowlist?: readonly string[];
  /**
   * The headers include configured credentials (an MCP server's sealed headers, a provider key): a
   * redirect to another origin is refused instead of followed, so they never reach a server nobody chose.
   */
  configuredHeaders?: boolean;
  signal?: AbortSignal;
  /** Tests: resolve names without DNS. */
  resolver?: Resolver;
}

export interface SafeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The final URL after redirects. */
  url: string;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

/** The only caller-set headers that follow a redirect to another origin. */
const REDIRECT_SAFE_HEADERS = new Set(['content-type', 'accept']);

const defaultResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves the URL's host and returns the address to connect to, or throws UnsafeUrlError. Every
 * resolved address must be allowed (a name answering with one public and one private address is
 * refused), unless the host itself or the address is allow-listed.
 */
export async function checkUrl(
  url: URL,
  allow: Allowlist,
  resolver: Resolver = defaultResolver,
): Promise<{ address: string; family: 4 | 6 }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeUrlError(`Only http and https URLs are allowed (got ${url.protocol}).`);
  }
  const host = normalizeIp(url.hostname);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolver(host).catch(() => []);
  if (addresses.length === 0) throw new UnsafeUrlError(`Could not resolve ${url.hostname}.`);
  const hostAllowed = !literal && allow.allowsHost(host);
  for (const a of addresses) {
    if (!hostAllowed && isBlockedAddress(a.address) && !allow.allowsAddress(a.address)) {
      throw new UnsafeUrlError(
        `Refused to connect to ${url.hostname}: ${a.address} is a private or reserved address.`,
      );
    }
  }
  const first = addresses[0];
  return { address: normalizeIp(first.address), family: first.family === 6 ? 6 : 4 };
}

function once(
  url: URL,
  pinned: { address: string; family: 4 | 6 },
  o: Required<Pick<SafeFetchOptions, 'method' | 'maxBytes'>> & SafeFetchOptions,
  signal: AbortSignal,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  // The connection goes to the address that was checked, whatever DNS says a moment later.
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) {
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: pinned.address, family: pinned.family },
      ]);
    } else cb(null, pinned.address, pinned.family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      { method: o.method, headers: o.headers, lookup, signal, agent: false },
      (res) => {
        const declared = Number(res.headers['content-length'] ?? '0');
        if (declared > o.maxBytes) {
          res.destroy();
          return reject(new FetchLimitError(`The response is larger than ${o.maxBytes} bytes.`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            res.destroy();
            reject(new FetchLimitError(`The response is larger than ${o.maxBytes} bytes.`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

/**
 * Outbound HTTP for tools (web search, user-defined HTTP tools): refuses private, loopback, link-local,
 * CGNAT, ULA, IPv4-mapped IPv6 and metadata addresses unless allow-listed, pins the checked address
 * for the connection, re-checks every redirect, and caps time and response size.
 */
export async function safeFetch(input: string, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
  const allow = new Allowlist(opts.allowlist ?? []);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRedirects = opts.maxRedirects ?? 5;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UnsafeUrlError('Invalid URL.');
  }
  let method = opts.method ?? 'GET';
  let body = opts.body;
  let headers = { ...(opts.headers ?? {}) };
  try {
    for (let hop = 0; ; hop++) {
      const pinned = await checkUrl(url, allow, opts.resolver);
      const res = await once(
        url,
        pinned,
        { ...opts, method, body, headers, maxBytes: opts.maxBytes ?? 1 << 20 },
        signal,
      );
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && location) {
        if (hop >= maxRedirects) throw new FetchLimitError(`More than ${maxRedirects} redirects.`);
        const next = new URL(location, url);
        if (next.origin !== url.origin) {
          if (opts.configuredHeaders) {
            throw new UnsafeUrlError(
              `Refused to follow a redirect from ${url.origin} to ${next.origin}: this call carries configured headers.`,
            );
          }
          // Whatever a caller set (a key under any name) stays with the origin it was meant for.
          headers = Object.fromEntries(
            Object.entries(headers).filter(([k]) => REDIRECT_SAFE_HEADERS.has(k.toLowerCase())),
          );
        }
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      const finalUrl = url.toString();
      return {
        status: res.status,
        headers: res.headers,
        url: finalUrl,
        body: res.body,
        text: () => res.body.toString('utf8'),
        json: <T>() => JSON.parse(res.body.toString('utf8')) as T,
      };
    }
  } catch (err) {
    if (timeout.aborted && !(err instanceof UnsafeUrlError)) {
      throw new FetchLimitError(`The request took longer than ${timeoutMs} ms.`);
    }
    throw err;
  }
}
