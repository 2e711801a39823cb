import { jsonSchema, type ToolSet, tool } from 'ai';
import { callMcpTool, type McpStoredTool } from '../../../ai/net/mcp-client.ts';
import { safeFetch } from '../../../ai/net/safe-fetch.ts';
import { type ExternalCallListener, externalCallRecorder } from '../../../ai/tools/external-calls.ts';
import { buildTools } from '../../../ai/tools/index.ts';
import type { AuthUser } from '../../../platform/auth/authenticate.ts';
import type { AppContext } from '../../../platform/context.ts';
import { openHeaders } from '../../../platform/secrets/sealed-headers.ts';

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
  /** kind mcp: the server URL, its sealed headers and the tools it listed (JSON, McpListedTool[]). */
  mcp_url?: string | null;
  mcp_headers?: string | null;
  mcp_tools?: string | null;
  /** Set on the per-tool view of an MCP row (mcpToolViews): the server tool this entry calls. */
  mcp_tool?: string;
  /** 1: every call waits for the runner's approval. */
  requires_approval: number;
  /**
   * 1: a model may choose this tool's arguments without a person's approval: an administrator marked
   * its method + endpoint side-effect-free (HTTP), or its owner marked it read-only (an MCP server's tool).
   */
  side_effect_free?: number;
  /** Ownership: a tool someone else made needs the runner's approval per destination. */
  created_by: string | null;
  is_auto_gen: number;
}

const HTTP_TOOL_TIMEOUT_MS = 15_000;
const HTTP_TOOL_MAX_BYTES = 256 * 1024;

/** Tool names the model sees: the built-in function name, or a slug of a user tool's name. */
export function toolKey(row: RunTool): string {
  if (row.kind === 'builtin' && row.function_name) return row.function_name;
  const slug = (row.mcp_tool ?? row.name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return `${row.mcp_tool !== undefined ? 'mcp' : 'http'}_${slug || 'tool'}_${row.id.slice(0, 6)}`;
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
  /** Told of the request once it has an outcome (the activity ledger's external calls). */
  onCall?: { tool: string; listener: ExternalCallListener },
): Promise<HttpToolResult> {
  const told = (status: number | null, error?: string) =>
    onCall?.listener({ tool: onCall.tool, method: call.method, url: call.url, status, error });
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
    await told(res.status);
    return { status: res.status, body: res.text().slice(0, 8_000) };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await told(null, error);
    return { error };
  }
}

/** The ledger's recorder of a run's outbound calls: entries `via: run:<id>` for the run's owner. */
export const runCallRecorder = (
  ctx: AppContext,
  run: { id: string; user_id: string },
): ExternalCallListener => externalCallRecorder(ctx, run.user_id, `run:${run.id}`);

/**
 * One entry per tool an MCP server listed: its name shown as `<server tool>: <tool>`, its own schema;
 * side-effect-free only when the tool's owner marked it read-only (the server's readOnlyHint is a hint).
 */
export function mcpToolViews(row: RunTool): RunTool[] {
  if (row.kind !== 'mcp' || !row.mcp_url) return [];
  let listed: McpStoredTool[] = [];
  try {
    listed = JSON.parse(row.mcp_tools ?? '[]') as McpStoredTool[];
  } catch {}
  return listed.map((t) => ({
    ...row,
    name: `${row.name}: ${t.name}`,
    description: t.description ?? t.name,
    input_schema: JSON.stringify(t.input_schema ?? {}),
    mcp_tool: t.name,
    side_effect_free: t.read_only === true ? 1 : 0,
  }));
}

/**
 * Calls one MCP server tool through the same outbound-address policy, with the row's headers
 * opened only here; the activity ledger gets the call like an HTTP tool's (method `MCP`).
 */
export async function sendMcpCall(
  ctx: AppContext,
  row: RunTool,
  args: Record<string, unknown>,
  signal?: AbortSignal,
  onCall?: { tool: string; listener: ExternalCallListener },
): Promise<HttpToolResult> {
  if (!row.mcp_url || row.mcp_tool === undefined) return { error: 'This MCP tool is not configured.' };
  const result = await callMcpTool(
    {
      url: row.mcp_url,
      headers: openHeaders(ctx.config.secretsKey, row.mcp_headers ?? null),
      allowlist: ctx.config.ai.httpAllowlist,
      signal,
    },
    row.mcp_tool,
    args,
  );
  await onCall?.listener({
    tool: onCall.tool,
    method: 'MCP',
    url: row.mcp_url,
    status: result.error ? null : 200,
    error: result.error,
  });
  return result;
}

/** Calls a user-defined HTTP or MCP tool (no approval gate: the gate calls this once a call may go). */
export async function callHttpTool(
  ctx: AppContext,
  row: RunTool,
  input: unknown,
  signal?: AbortSignal,
  onCall?: ExternalCallListener,
): Promise<HttpToolResult> {
  if (row.kind === 'mcp')
    return sendMcpCall(ctx, row, asArguments(input), signal, onCall && { tool: row.name, listener: onCall });
  if (!row.http_url) return { error: 'This tool has no endpoint configured.' };
  const call = describeHttpCall(row.http_method, row.http_url, asArguments(input));
  return sendHttpCall(ctx, call, signal, onCall && { tool: row.name, listener: onCall });
}

/** Where an HTTP tool's calls go through when a run may have to ask first (see approval-gate.ts). */
export type HttpCaller = (
  row: RunTool,
  input: unknown,
  signal?: AbortSignal,
  /** The arguments come from a model (an agent's call), not from the person's run inputs. */
  fromModel?: boolean,
) => Promise<HttpToolResult>;

/** The AI SDK tools of an agent: built-in ones through the AI core's buildTools, HTTP ones here. */
export async function toolsFor(
  ctx: AppContext,
  user: AuthUser,
  rows: RunTool[],
  /** The run the calls are made in: every outbound call is recorded in the activity ledger as `run:<id>`. */
  runId: string,
  callHttp?: HttpCaller,
): Promise<ToolSet> {
  const builtinNames = rows.flatMap((r) =>
    r.kind === 'builtin' && r.function_name ? [r.function_name] : [],
  );
  const via = `run:${runId}` as const;
  const onCall = externalCallRecorder(ctx, user.id, via);
  const send: HttpCaller =
    callHttp ?? ((row, input, signal) => callHttpTool(ctx, row, input, signal, onCall));
  const set: ToolSet = builtinNames.length ? { ...(await buildTools(ctx, user, builtinNames, { via })) } : {};
  for (const row of rows.flatMap((r) => (r.kind === 'mcp' ? mcpToolViews(r) : [r]))) {
    if (row.kind === 'http' && !row.http_url) continue;
    if (row.kind !== 'http' && row.mcp_tool === undefined) continue;
    set[toolKey(row)] = tool({
      description: row.description ?? row.name,
      inputSchema: jsonSchema(parseSchema(row.input_schema)),
      // The model chose these arguments: the gate asks a person unless the call is side-effect-free.
      execute: async (input, { abortSignal }) => send(row, input, abortSignal, true),
    });
  }
  return set;
}
