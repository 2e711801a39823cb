import {
  describeMcpFailure,
  listMcpTools,
  type McpListedTool,
  type McpStoredTool,
} from '../../ai/net/mcp-client.ts';
import { UnsafeUrlError } from '../../ai/net/safe-fetch.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { openHeaders, sealHeaders } from '../../platform/secrets/sealed-headers.ts';
import type { ToolRow } from './factory.repository.ts';

// MCP servers as factory tools (issue 22 section 3, docs/decisions/ 2026-11-24): one row per
// server holds the tools it listed; an agent's toolIds name the row (all its tools) or
// `<row id>:<tool name>` (that tool alone).

/** Splits an agent's tool reference into the row id and, for one tool of an MCP server, its name. */
export function splitToolRef(ref: string): { id: string; mcpTool: string | null } {
  const at = ref.indexOf(':');
  return at < 0 ? { id: ref, mcpTool: null } : { id: ref.slice(0, at), mcpTool: ref.slice(at + 1) };
}

function refusal(err: unknown): string {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof UnsafeUrlError) return `The MCP server's address is not allowed: ${e.message}`;
  }
  return `The MCP server could not be reached or did not list its tools: ${describeMcpFailure(err)}`.slice(
    0,
    500,
  );
}

/** Lists the server's tools now (saving an MCP tool); 422 with the reason when that fails. */
export async function discoverMcpTools(
  ctx: AppContext,
  url: string,
  headers: Record<string, string>,
): Promise<McpListedTool[]> {
  try {
    return await listMcpTools({ url, headers, allowlist: ctx.config.ai.httpAllowlist });
  } catch (err) {
    throw new AppError(422, refusal(err));
  }
}

function storedTools(row: ToolRow | null): McpStoredTool[] {
  try {
    const listed = JSON.parse(row?.mcp_tools ?? '[]') as McpStoredTool[];
    return Array.isArray(listed) ? listed : [];
  } catch {
    return [];
  }
}

/**
 * The MCP columns of a saved tool; headers undefined keep the stored ones (an update without them).
 * The owner's read-only marks (`read_only_tools`) are kept per tool name; omitted, the current marks
 * stay. The server's readOnlyHint never marks a tool (issue 46 row 5).
 */
export async function mcpColumns(
  ctx: AppContext,
  input: { url: string; headers?: Record<string, string>; read_only_tools?: string[] },
  current: ToolRow | null,
) {
  const headers = input.headers ?? openHeaders(ctx.config.secretsKey, current?.mcp_headers ?? null);
  const tools = await discoverMcpTools(ctx, input.url, headers);
  const marks = new Set(
    input.read_only_tools ?? storedTools(current).flatMap((t) => (t.read_only === true ? [t.name] : [])),
  );
  const unknown = input.read_only_tools?.find((name) => !tools.some((t) => t.name === name));
  if (unknown !== undefined)
    throw new AppError(422, `The MCP server does not list a tool named “${unknown.slice(0, 200)}”.`);
  const stored: McpStoredTool[] = tools.map((t) => ({ ...t, read_only: marks.has(t.name) }));
  return {
    mcp_url: input.url,
    mcp_headers: sealHeaders(ctx.config.secretsKey, headers),
    mcp_tools: JSON.stringify(stored),
  };
}

/** The rows of these references, an MCP row narrowed to the tools named (one row per server). */
export function selectMcpTools(rows: ToolRow[], refs: readonly string[]): ToolRow[] {
  const wanted = new Map<string, Set<string> | 'all'>();
  for (const ref of refs) {
    const { id, mcpTool } = splitToolRef(ref);
    const had = wanted.get(id);
    if (mcpTool === null || had === 'all') wanted.set(id, 'all');
    else wanted.set(id, new Set([...(had ?? []), mcpTool]));
  }
  return rows.map((row) => {
    const names = wanted.get(row.id);
    if (row.kind !== 'mcp' || !names || names === 'all') return row;
    let listed: McpListedTool[] = [];
    try {
      listed = JSON.parse(row.mcp_tools ?? '[]') as McpListedTool[];
    } catch {}
    return { ...row, mcp_tools: JSON.stringify(listed.filter((t) => names.has(t.name))) };
  });
}
