import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** Keep-alive agents: a model call reuses the connection of the previous one. */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** The SDK's fetch failure shape (it retries a TypeError "fetch failed" as a network error). */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

const abortReason = (signal: AbortSignal) =>
  signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/** A provider's reply as node:http gives it: status, headers and the (decompressed) body stream. */
export interface ProviderReply {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Readable;
  /** true when the server asked to be followed elsewhere (3xx with a Location) */
  redirect: boolean;
}

/**
 * One request to a model provider over node:http(s) with the keep-alive agents: string or byte body,
 * an abort signal (the request is destroyed, the body stream errors with the signal's reason), and
 * compressed replies decoded. It rejects with the signal's reason when aborted first, or with
 * `fetch failed` (the shape the SDK retries) when the connection fails. Redirects are not followed:
 * the reply says so and the caller decides.
 */
export function providerRequest(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal },
): Promise<ProviderReply> {
  const { body, signal } = init;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<ProviderReply>((resolve, reject) => {
    const headers = { ...init.headers };
    if (body != null) headers['content-length'] = String(Buffer.byteLength(body));
    const transport = url.protocol === 'https:' ? https : http;
    const agent = agents[url.protocol as keyof typeof agents];
    let settled = false;
    const req = transport.request(url, { method: init.method, headers, agent }, (res) => {
      const status = res.statusCode ?? 0;
      const out: Record<string, string> = {};
      for (const [key, value] of Object.entries(res.headers)) {
        if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
      }
      let stream: Readable = res;
      const decode = DECODERS[String(res.headers['content-encoding'] ?? '').toLowerCase()];
      if (decode) {
        stream = res.pipe(decode()) as unknown as Readable;
        res.on('error', (err) => stream.destroy(err));
        delete out['content-encoding'];
        delete out['content-length'];
      }
      signal?.addEventListener('abort', () => stream.destroy(abortReason(signal)), { once: true });
      settled = true;
      resolve({
        status,
        statusText: res.statusMessage ?? '',
        headers: out,
        body: stream,
        redirect: REDIRECT_STATUS.has(status) && Boolean(res.headers.location),
      });
    });
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(signal?.aborted ? abortReason(signal) : fetchFailed(err));
    });
    signal?.addEventListener(
      'abort',
      () => {
        req.destroy();
        if (!settled) {
          settled = true;
          reject(abortReason(signal));
        }
      },
      { once: true },
    );
    req.end(body ?? undefined);
  });
}

/**
 * `fetch` for the model providers, over {@link providerRequest}.
 *
 * The AI SDK's providers call `fetch` once per model call and read the streamed reply through it.
 * Node's built-in fetch (undici) costs about a millisecond per call on the 2-core machines before the
 * request leaves and adds its own stream stages per chunk; this client sends the same request with
 * node:http and hands the SDK a standard `Response` whose body is the socket's stream
 * (docs/decisions/, "Chat streaming: …"). It covers what a provider call needs: string or byte
 * bodies, abort signals, compressed replies, and network failures reported as fetch reports them.
 * Anything else — a `Request` object, a streamed or form body, a redirect — goes to the built-in
 * fetch unchanged.
 */
export const providerFetch: typeof fetch = async (input, init = {}) => {
  const raw = init.body;
  const body = raw == null ? undefined : typeof raw === 'string' || raw instanceof Uint8Array ? raw : null;
  if (input instanceof Request || body === null) return fetch(input, init);
  const url = new URL(String(input));
  if (!(url.protocol in agents)) return fetch(input, init);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    headers[key] = value;
  });
  const method = init.method ?? 'GET';
  const reply = await providerRequest(url, { method, headers, body, signal: init.signal ?? undefined });
  if (reply.redirect && init.redirect !== 'manual') {
    reply.body.resume();
    return fetch(input, init);
  }
  const nullBody = NULL_BODY_STATUS.has(reply.status) || method === 'HEAD';
  if (nullBody) reply.body.resume();
  return new Response(nullBody ? null : (Readable.toWeb(reply.body) as ReadableStream<Uint8Array>), {
    status: reply.status,
    statusText: reply.statusText,
    headers: reply.headers,
  });
};
