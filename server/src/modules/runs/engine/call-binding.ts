import { createHash } from 'node:crypto';
import type { ToolApprovalRow } from './tool-approvals.repository.ts';
import type { RunTool } from './tools.ts';

/**
 * What an approval is bound to (issue 46 row 4): the tool, the MCP server tool it names and the
 * arguments the model proposed. A resumed step's call gets a stored decision only when all three are
 * the same; a model that now calls another tool (or the same one differently) makes a new call,
 * with its own gate.
 */
export interface CallBinding {
  toolId: string;
  /** The MCP server tool's name; null for an HTTP tool. */
  serverTool: string | null;
  proposedDigest: string;
}

export function bindingOf(tool: RunTool, args: Record<string, unknown>): CallBinding {
  return {
    toolId: tool.id,
    serverTool: tool.kind === 'mcp' ? (tool.mcp_tool ?? null) : null,
    proposedDigest: argumentsDigest(args),
  };
}

export function isBoundTo(
  row: Pick<ToolApprovalRow, 'tool_id' | 'server_tool' | 'proposed_digest'>,
  b: CallBinding,
): boolean {
  return (
    row.proposed_digest !== null &&
    row.tool_id === b.toolId &&
    (row.server_tool ?? null) === b.serverTool &&
    row.proposed_digest === b.proposedDigest
  );
}

/** SHA-256 of the arguments' canonical JSON (keys sorted at every level): key order does not matter. */
export function argumentsDigest(args: Record<string, unknown>): string {
  return createHash('sha256').update(canonical(args)).digest('hex');
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
