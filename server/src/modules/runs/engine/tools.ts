import { jsonSchema, type ToolSet, tool } from 'ai';
import { safeFetch } from '../../../ai/net/safe-fetch.ts';
import { type ExternalCallListener, externalCallRecorder } from '../../../ai/tools/external-calls.ts';
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

/**
 * Calls a user-defined HTTP tool through the SSRF-safe fetch (loopback, private, link-local and
 * metadata addresses refused unless allow-listed; redirects re-checked; time and size capped).
 * Failures come back as `{error}` so the agent (and the timeline) sees them and the run goes on.
 */
export async function callHttpTool(
  ctx: AppContext,
  row: RunTool,
  input: unknown,
  signal?: AbortSignal,
  /** Told of the request once it has an outcome (the activity ledger's external calls). */
  onCall?: ExternalCallListener,
): Promise<{ status?: number; body?: string; error?: string }> {
  if (!row.http_url) return { error: 'This tool has no endpoint configured.' };
  const method = row.http_method === 'GET' ? 'GET' : 'POST';
  let url = row.http_url;
  if (method === 'GET' && input && typeof input === 'object') {
    const u = new URL(url);
    for (const [k, v] of Object.entries(input as Record<string, unknown>))
      u.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    url = u.toString();
  }
  try {
    const res = await safeFetch(url, {
      method,
      allowlist: ctx.config.ai.httpAllowlist,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? JSON.stringify(input ?? {}) : undefined,
      signal,
      timeoutMs: HTTP_TOOL_TIMEOUT_MS,
      maxBytes: HTTP_TOOL_MAX_BYTES,
    });
    await onCall?.({ tool: row.name, method, url, status: res.status });
    return { status: res.status, body: res.text().slice(0, 8_000) };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await onCall?.({ tool: row.name, method, url, status: null, error });
    return { error };
  }
}

/** The AI SDK tools of an agent: built-in ones through the AI core's buildTools, HTTP ones here. */
export async function toolsFor(
  ctx: AppContext,
  user: AuthUser,
  rows: RunTool[],
  /** The run the calls are made in: every outbound call is recorded in the activity ledger as `run:<id>`. */
  runId: string,
): Promise<ToolSet> {
  const builtinNames = rows.flatMap((r) =>
    r.kind === 'builtin' && r.function_name ? [r.function_name] : [],
  );
  const via = `run:${runId}` as const;
  const onCall = externalCallRecorder(ctx, user.id, via);
  const set: ToolSet = builtinNames.length ? { ...(await buildTools(ctx, user, builtinNames, { via })) } : {};
  for (const row of rows) {
    if (row.kind !== 'http' || !row.http_url) continue;
    set[toolKey(row)] = tool({
      description: row.description ?? row.name,
      inputSchema: jsonSchema(parseSchema(row.input_schema)),
      execute: async (input, { abortSignal }) => callHttpTool(ctx, row, input, abortSignal, onCall),
    });
  }
  return set;
}
