import { jsonSchema, type ToolSet, tool } from 'ai';
import { safeFetch } from '../../../ai/net/safe-fetch.ts';
import { buildTools } from '../../../ai/tools/index.ts';
import type { AuthUser } from '../../../platform/auth/authenticate.ts';
import type { AppContext } from '../../../platform/context.ts';

/** A factory tool as the engine uses it (the factory's row has more columns). */
export interface RunTool {
  id: string;
  name: string;
  description: string | null;
  kind: string;
  function_name: string | null;
  http_url: string | null;
  http_method: string | null;
  /** JSON Schema object */
  input_schema: string;
  /** 1: every call waits for the runner's approval. */
  requires_approval: number;
  /** Ownership: a tool someone else made needs the runner's approval per destination. */
  created_by: string | null;
  is_auto_gen: number;
}

const HTTP_TOOL_TIMEOUT_MS = 15_000;
const HTTP_TOOL_MAX_BYTES = 256 * 1024;

/** Tool names the model sees: the built-in function name, or a slug of a user tool's name. */
export function toolKey(row: RunTool): string {
  if (row.kind === 'builtin' && row.function_name) return row.function_name;
  const slug = row.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return `http_${slug || 'tool'}_${row.id.slice(0, 6)}`;
}

function parseSchema(text: string): Record<string, unknown> {
  try {
    const s = JSON.parse(text) as Record<string, unknown>;
    return s && typeof s === 'object' && s.type === 'object' ? s : { type: 'object', properties: {} };
  } catch {
    return { type: 'object', properties: {} };
  }
}

/** What an HTTP tool call returned; failures come back as `{error}` so the agent sees them. */
export interface HttpToolResult {
  status?: number;
  body?: string;
  error?: string;
}

/** One outbound call exactly as it will be made: what an approval shows and what is sent. */
export interface HttpCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** The JSON body (POST); null for GET, whose arguments go into the query string. */
  body: Record<string, unknown> | null;
}

export function asArguments(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input)
    ? { ...(input as Record<string, unknown>) }
    : {};
}

/** The call a tool with this method and endpoint makes for these arguments. */
export function describeHttpCall(
  method: string | null,
  baseUrl: string,
  args: Record<string, unknown>,
): HttpCall {
  if (method === 'GET') {
    const u = new URL(baseUrl);
    for (const [k, v] of Object.entries(args))
      u.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    return { method: 'GET', url: u.toString(), headers: {}, body: null };
  }
  return { method: 'POST', url: baseUrl, headers: { 'content-type': 'application/json' }, body: args };
}

const SECRET_HEADER =
  /authorization|cookie|api[-_]?key|token|secret|password|passwd|session|signature|credential|auth/i;

/** Headers as a person may see and the database may keep them: anything secret-looking is masked. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, SECRET_HEADER.test(k) ? '[redacted]' : v]),
  );
}

/**
 * Sends a call through the SSRF-safe fetch (loopback, private, link-local and metadata addresses
 * refused unless allow-listed; redirects re-checked; time and size capped). Failures come back as
 * `{error}` so the agent (and the timeline) sees them and the run goes on.
 */
export async function sendHttpCall(
  ctx: AppContext,
  call: HttpCall,
  signal?: AbortSignal,
): Promise<HttpToolResult> {
  try {
    const res = await safeFetch(call.url, {
      method: call.method,
      allowlist: ctx.config.ai.httpAllowlist,
      headers: call.headers,
      body: call.body ? JSON.stringify(call.body) : undefined,
      signal,
      timeoutMs: HTTP_TOOL_TIMEOUT_MS,
      maxBytes: HTTP_TOOL_MAX_BYTES,
    });
    return { status: res.status, body: res.text().slice(0, 8_000) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Calls a user-defined HTTP tool (no approval gate: the gate calls this once a call may go). */
export async function callHttpTool(
  ctx: AppContext,
  row: RunTool,
  input: unknown,
  signal?: AbortSignal,
): Promise<HttpToolResult> {
  if (!row.http_url) return { error: 'This tool has no endpoint configured.' };
  return sendHttpCall(ctx, describeHttpCall(row.http_method, row.http_url, asArguments(input)), signal);
}

/** Where an HTTP tool's calls go through when a run may have to ask first (see approval-gate.ts). */
export type HttpCaller = (row: RunTool, input: unknown, signal?: AbortSignal) => Promise<HttpToolResult>;

/** The AI SDK tools of an agent: built-in ones through the AI core's buildTools, HTTP ones here. */
export async function toolsFor(
  ctx: AppContext,
  user: AuthUser,
  rows: RunTool[],
  callHttp: HttpCaller = (row, input, signal) => callHttpTool(ctx, row, input, signal),
): Promise<ToolSet> {
  const builtinNames = rows.flatMap((r) =>
    r.kind === 'builtin' && r.function_name ? [r.function_name] : [],
  );
  const set: ToolSet = builtinNames.length ? { ...(await buildTools(ctx, user, builtinNames)) } : {};
  for (const row of rows) {
    if (row.kind !== 'http' || !row.http_url) continue;
    set[toolKey(row)] = tool({
      description: row.description ?? row.name,
      inputSchema: jsonSchema(parseSchema(row.input_schema)),
      execute: async (input, { abortSignal }) => callHttp(row, input, abortSignal),
    });
  }
  return set;
}
