import { randomUUID } from 'node:crypto';
import type { TToolGateReason } from '@cc/contract';
import type { AppContext } from '../../../platform/context.ts';
import { headerNamesOf } from '../../../platform/secrets/sealed-headers.ts';
import type { RunRow } from './runs.repository.ts';
import * as approvals from './tool-approvals.repository.ts';
import {
  asArguments,
  describeHttpCall,
  type HttpToolResult,
  type RunTool,
  redactHeaders,
  runCallRecorder,
  sendHttpCall,
  sendMcpCall,
} from './tools.ts';

/** What the agent gets as the tool's result when the person said no: their reason, word for word. */
export const REJECTED_RESULT_PREFIX = 'The person rejected this call: ';

/** Thrown (and the step aborted) when a call must wait: the executor pauses the run before it. */
export class ApprovalPending extends Error {
  constructor(readonly approval: approvals.ToolApprovalRow) {
    super('Waiting for approval of a tool call');
  }
}

/**
 * The outbound-call gate of one step attempt. Every HTTP call of the step goes through `call`, which
 * numbers the calls in order: the n-th call of a step is the same call when the step runs again after
 * a pause or a restart, so its stored decision is found by (run, position, n). A call waits when its
 * tool requires approval, or when the run uses someone else's item (then once per destination per run).
 * An approved call is claimed (approved → executing) before it is sent and its result kept, so it is
 * sent once whichever instance resumes the run; a resumed step gets the kept result.
 */
export class ApprovalGate {
  private next = 0;
  /** Set when a call had to wait: the run pauses before it. */
  pending: approvals.ToolApprovalRow | null = null;

  constructor(
    private readonly o: {
      ctx: AppContext;
      run: RunRow;
      position: number;
      /** The run's crew/flow or the step's agent is someone else's. */
      foreignItem: boolean;
      /** Aborts the step (a model call in flight stops when a call must wait). */
      abort: AbortController;
    },
  ) {}

  call = async (
    tool: RunTool,
    input: unknown,
    signal?: AbortSignal,
    /** A model chose the arguments (an agent's call); false for a tool step's run inputs. */
    fromModel = true,
  ): Promise<HttpToolResult> => {
    // Numbered before any await, so calls started together keep their order.
    const index = this.next++;
    const { ctx, run, position } = this.o;
    const existing = await approvals.findApprovalAt(ctx.db, run.id, position, index);
    if (existing) return this.settle(existing, signal, tool);
    if (tool.kind === 'mcp') return this.callMcp(tool, asArguments(input), index, signal, fromModel);
    if (!tool.http_url) return { error: 'This tool has no endpoint configured.' };
    const args = asArguments(input);
    const call = describeHttpCall(tool.http_method, tool.http_url, args);
    const destination = new URL(tool.http_url).origin;
    const reason = await this.gateReason(tool, destination, fromModel);
    if (!reason) return sendHttpCall(ctx, call, signal, this.ledger(tool.name));
    const ts = new Date().toISOString();
    const row = await approvals.insertPendingApproval(ctx.db, {
      id: randomUUID(),
      run_id: run.id,
      user_id: run.user_id,
      position,
      call_index: index,
      tool_id: tool.id,
      tool_name: tool.name,
      method: call.method,
      url: tool.http_url,
      destination,
      headers: JSON.stringify(redactHeaders(call.headers)),
      arguments: JSON.stringify(args),
      gate_reason: reason,
      status: 'pending',
      edited: 0,
      reason: null,
      result: null,
      decided_by: null,
      decided_at: null,
      created_at: ts,
      updated_at: ts,
    });
    return this.settle(row, signal);
  };

  /**
   * An MCP server tool: gated like an HTTP tool (its own flag, or someone else's item); the approval
   * shows the tool, the server URL, the header names only and the arguments.
   */
  private async callMcp(
    tool: RunTool,
    args: Record<string, unknown>,
    index: number,
    signal: AbortSignal | undefined,
    fromModel: boolean,
  ): Promise<HttpToolResult> {
    const { ctx, run, position } = this.o;
    if (!tool.mcp_url) return { error: 'This MCP tool is not configured.' };
    const destination = new URL(tool.mcp_url).origin;
    const reason = await this.gateReason(tool, destination, fromModel);
    if (!reason) return sendMcpCall(ctx, tool, args, signal, this.ledger(tool.name));
    const ts = new Date().toISOString();
    const headerNames = headerNamesOf(tool.mcp_headers ?? null);
    const row = await approvals.insertPendingApproval(ctx.db, {
      id: randomUUID(),
      run_id: run.id,
      user_id: run.user_id,
      position,
      call_index: index,
      tool_id: tool.id,
      tool_name: tool.name,
      method: 'MCP',
      url: tool.mcp_url,
      destination,
      headers: JSON.stringify(Object.fromEntries(headerNames.map((n) => [n, '[redacted]']))),
      arguments: JSON.stringify(args),
      gate_reason: reason,
      status: 'pending',
      edited: 0,
      reason: null,
      result: null,
      decided_by: null,
      decided_at: null,
      created_at: ts,
      updated_at: ts,
    });
    return this.settle(row, signal, tool);
  }

  /** Every call that goes out is in the activity ledger, as the run's. */
  private ledger(tool: string) {
    return { tool, listener: runCallRecorder(this.o.ctx, this.o.run) };
  }

  private async gateReason(
    tool: RunTool,
    destination: string,
    fromModel: boolean,
  ): Promise<TToolGateReason | null> {
    if (tool.requires_approval === 1) return 'requires_approval';
    // Issue 46 row 5: data a model chose leaves only where an administrator (HTTP) or the tool's
    // owner (an MCP tool marked read-only) said calls have no side effects.
    if (fromModel && tool.side_effect_free !== 1) return 'model_arguments';
    // Same rule as factory.policy isForeignItem (the engine imports no other module).
    const foreignTool =
      tool.is_auto_gen !== 1 && tool.created_by !== null && tool.created_by !== this.o.run.user_id;
    if (!this.o.foreignItem && !foreignTool) return null;
    const approved = await approvals.destinationApproved(this.o.ctx.db, this.o.run.id, destination);
    return approved ? null : 'foreign_item';
  }

  private async settle(
    row: approvals.ToolApprovalRow,
    signal?: AbortSignal,
    /** The tool as the step offers it now (an MCP call needs its server's headers to be sent). */
    tool?: RunTool,
  ): Promise<HttpToolResult> {
    const { ctx } = this.o;
    switch (row.status) {
      case 'rejected':
        return { error: `${REJECTED_RESULT_PREFIX}${row.reason ?? ''}` };
      case 'done':
        return parseResult(row.result);
      case 'executing':
        // Claimed before an interruption: it may have been sent, so it is never sent again.
        return {
          error: 'This approved call was interrupted; it is not repeated and its outcome is unknown.',
        };
      case 'approved': {
        if (!(await approvals.claimApproved(ctx.db, row.id))) {
          const now = await approvals.findApproval(ctx.db, row.id);
          return now ? this.settle(now, signal, tool) : { error: 'The approval is gone.' };
        }
        const args = asArguments(parseJson(row.arguments));
        const result =
          row.method === 'MCP'
            ? tool?.kind === 'mcp'
              ? await sendMcpCall(
                  ctx,
                  { ...tool, mcp_url: row.url },
                  args,
                  signal,
                  this.ledger(row.tool_name),
                )
              : { error: 'The MCP tool of this approved call is no longer available.' }
            : await sendHttpCall(
                ctx,
                describeHttpCall(row.method, row.url, args),
                signal,
                this.ledger(row.tool_name),
              );
        await approvals.storeResult(ctx.db, row.id, result);
        return result;
      }
      default:
        this.pending = row;
        this.o.abort.abort(new ApprovalPending(row));
        throw new ApprovalPending(row);
    }
  }
}

function parseJson(text: string | null): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function parseResult(text: string | null): HttpToolResult {
  const r = parseJson(text);
  return r && typeof r === 'object' ? (r as HttpToolResult) : { error: 'The stored result is unreadable.' };
}
