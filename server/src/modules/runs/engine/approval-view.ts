import type { TToolApproval, TToolApprovalStatus, TToolCallView, TToolGateReason } from '@cc/contract';
import type { ToolApprovalRow } from './tool-approvals.repository.ts';
import { asArguments, describeHttpCall } from './tools.ts';

function parseObject(text: string | null): Record<string, unknown> {
  try {
    return asArguments(text ? JSON.parse(text) : null);
  } catch {
    return {};
  }
}

/** The exact call that waits (or was made): tool, method, destination, redacted headers, body. */
export function callViewOf(row: ToolApprovalRow): TToolCallView {
  // An MCP call (method `MCP`): the server URL and the arguments as they are sent to the tool.
  const call =
    row.method === 'MCP'
      ? { method: 'MCP', url: row.url, body: parseObject(row.arguments) }
      : describeHttpCall(row.method, row.url, parseObject(row.arguments));
  return {
    tool: row.tool_name,
    method: call.method,
    url: call.url,
    // The stored headers were redacted before they were written.
    headers: parseObject(row.headers) as Record<string, string>,
    body: call.body,
  };
}

export function presentApproval(row: ToolApprovalRow): TToolApproval {
  return {
    ...callViewOf(row),
    id: row.id,
    run_id: row.run_id,
    tool_id: row.tool_id,
    arguments: parseObject(row.arguments),
    gate_reason: row.gate_reason as TToolGateReason,
    status: row.status as TToolApprovalStatus,
    edited: row.edited === 1,
    reason: row.reason,
    decided_at: row.decided_at,
    created_at: row.created_at,
  };
}

/** Where the person sees the run and decides (the inbox links there). */
export function runPagePath(run: { kind: string; id: string }): string {
  return `/app/runs/${run.kind}/${run.id}`;
}
