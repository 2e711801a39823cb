import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FetchLimitError, safeFetch, UnsafeUrlError } from './safe-fetch.ts';

/** One tool an MCP server listed, as the factory keeps it. */
export interface McpListedTool {
  name: string;
  description: string | null;
  input_schema: Record<string, unknown>;
  /** The server's annotation `readOnlyHint === true`: a claim of the server, shown, never trusted. */
  read_only_hint: boolean;
}

/** A listed tool as a factory row keeps it: plus its owner's mark (only that skips the approval). */
export interface McpStoredTool extends McpListedTool {
  read_only: boolean;
}

export interface McpTarget {
  url: string;
  headers: Record<string, string>;
  /** AI_HTTP_ALLOWLIST entries: the same outbound-address policy as HTTP tools. */
  allowlist: readonly string[];
  signal?: AbortSignal;
}

const MCP_TIMEOUT_MS = 15_000;
const MCP_MAX_BYTES = 1 << 20;
const MAX_TOOLS = 100;

function headerRecord(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h ?? {}).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/**
 * The SDK's fetch, through the SSRF-safe fetch (private addresses refused unless allow-listed,
 * redirects re-checked, time and size capped). Only POSTs go out: the optional server-to-client
 * GET stream and the session DELETE are answered 405 here, which the SDK treats as "not offered"
 * (a long-lived stream would only hold a buffered request until its timeout).
 */
function policyFetch(target: McpTarget): FetchLike {
  return async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'POST') return new Response(null, { status: 405 });
    const res = await safeFetch(String(url), {
      method: 'POST',
      headers: headerRecord(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
      allowlist: target.allowlist,
      // The sealed headers never follow a redirect to another origin.
      configuredHeaders: Object.keys(target.headers).length > 0,
      signal: init?.signal ?? target.signal,
      timeoutMs: MCP_TIMEOUT_MS,
      maxBytes: MCP_MAX_BYTES,
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const empty = res.status === 202 || res.status === 204 || res.body.length === 0;
    return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers });
  };
}

/** Connects, runs `use`, and always closes the client (a failed close is not the caller's problem). */
async function withClient<T>(target: McpTarget, use: (c: Client) => Promise<T>): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    fetch: policyFetch(target),
    requestInit: { headers: target.headers },
  });
  const client = new Client({ name: 'command-centre', version: '1.0.0' });
  // Transport faults surface as rejected requests; the handler keeps them from being unhandled.
  client.onerror = () => {};
  try {
    await client.connect(transport);
    return await use(client);
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * Why talking to an MCP server failed, in our own words: the server's answer (an error page, a
 * JSON-RPC error, a reply that does not parse) is upstream text and never reaches a detail or a
 * timeline; the address policy's and the limits' messages are ours, and so is a network error's code.
 */
export function describeMcpFailure(err: unknown): string {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof UnsafeUrlError || e instanceof FetchLimitError) return e.message;
  }
  const e = err as { name?: unknown; code?: unknown } | null;
  if (e && e.name !== 'McpError' && typeof e.code === 'number' && e.code >= 100)
    return `The MCP server answered HTTP ${e.code}.`;
  if (e && typeof e.code === 'string' && /^E[A-Z_]+$/.test(e.code))
    return `The MCP server could not be reached (${e.code}).`;
  if (e?.name === 'McpError') return 'The MCP server returned an error.';
  if (err instanceof Error && err.name === 'AbortError') return 'The call to the MCP server was stopped.';
  return 'The MCP server gave an answer that could not be read.';
}

/** The tools the server lists (first pages, at most MAX_TOOLS). Throws when it cannot be reached. */
export async function listMcpTools(target: McpTarget): Promise<McpListedTool[]> {
  return withClient(target, async (client) => {
    const out: McpListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { signal: target.signal });
      for (const t of page.tools) {
        out.push({
          name: t.name,
          description: t.description ?? t.title ?? null,
          input_schema: (t.inputSchema as Record<string, unknown>) ?? { type: 'object', properties: {} },
          read_only_hint: t.annotations?.readOnlyHint === true,
        });
      }
      cursor = page.nextCursor;
    } while (cursor && out.length < MAX_TOOLS);
    return out.slice(0, MAX_TOOLS);
  });
}

/** What a call returned: the text of its content, or `{error}` (the agent sees either). */
export interface McpCallResult {
  body?: string;
  error?: string;
}

/** Calls one tool; failures (refused address, network, the tool's own error) come back as `{error}`. */
export async function callMcpTool(
  target: McpTarget,
  name: string,
  args: Record<string, unknown>,
): Promise<McpCallResult> {
  try {
    return await withClient(target, async (client) => {
      const res = await client.callTool({ name, arguments: args }, undefined, { signal: target.signal });
      const content = Array.isArray(res.content) ? res.content : [];
      const text = content
        .map((c) => (c.type === 'text' ? c.text : JSON.stringify(c)))
        .join('\n')
        .slice(0, 8_000);
      const body = text || (res.structuredContent ? JSON.stringify(res.structuredContent) : '');
      return res.isError ? { error: body || 'The MCP tool reported an error.' } : { body };
    });
  } catch (err) {
    return { error: describeMcpFailure(err) };
  }
}
