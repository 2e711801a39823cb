import { randomUUID } from 'node:crypto';
import type { TToolGateReason } from '@cc/contract';
import type { AppContext } from '../../../platform/context.ts';
import { headerNamesOf } from '../../../platform/secrets/sealed-headers.ts';
import { bindingOf, type CallBinding, isBoundTo } from './call-binding.ts';
import { runEngineOf } from './engine-registry.ts';
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
 * The outbound-call gate of one step attempt. Every HTTP or MCP call of the step goes through `call`.
 * A call waits when its tool requires approval, or when the run uses someone else's item (then once
 * per destination per run). Its approval is bound to the call (call-binding.ts: tool, MCP server tool,
 * proposed arguments): when the step runs again after a pause or a restart, a call gets a stored
 * decision only if it is bound to it, each decision serving one call; anything else is a new call
 * with its own gate (issue 46 row 4). An approved call is claimed (approved → executing) before it is
 * sent and its result kept, so it is sent once whichever instance resumes the run; a resumed step gets
 * the kept result. What is sent comes from the approval row and the approved tool only.
 */
export class ApprovalGate {
  private next = 0;
  /** Stored decisions this attempt has given to a call already: each serves one call. */
  private readonly used = new Set<string>();
  /** Set when a call had to wait (or was interrupted and asks the person): the run pauses before it. */
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
    const args = asArguments(input);
    const binding = bindingOf(tool, args);
    const existing = await this.storedDecision(index, binding);
    if (existing) return this.settle(existing, signal);
    if (tool.kind === 'mcp') return this.callMcp(tool, args, binding, index, signal, fromModel);
    if (!tool.http_url) return { error: 'This tool has no endpoint configured.' };
    const call = describeHttpCall(tool.http_method, tool.http_url, args);
    const destination = new URL(tool.http_url).origin;
    const reason = await this.gateReason(tool, destination, fromModel);
    if (!reason) return sendHttpCall(this.o.ctx, call, signal, this.ledger(tool.name));
    const row = await this.openApproval(index, binding, {
      tool_id: tool.id,
      tool_name: tool.name,
      method: call.method,
      url: tool.http_url,
      destination,
      headers: JSON.stringify(redactHeaders(call.headers)),
      arguments: JSON.stringify(args),
      gate_reason: reason,
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
    binding: CallBinding,
    index: number,
    signal: AbortSignal | undefined,
    fromModel: boolean,
  ): Promise<HttpToolResult> {
    if (!tool.mcp_url || tool.mcp_tool === undefined) return { error: 'This MCP tool is not configured.' };
    const destination = new URL(tool.mcp_url).origin;
    const reason = await this.gateReason(tool, destination, fromModel);
    if (!reason) return sendMcpCall(this.o.ctx, tool, args, signal, this.ledger(tool.name));
    const headerNames = headerNamesOf(tool.mcp_headers ?? null);
    const row = await this.openApproval(index, binding, {
      tool_id: tool.id,
      tool_name: tool.name,
      method: 'MCP',
      url: tool.mcp_url,
      destination,
      headers: JSON.stringify(Object.fromEntries(headerNames.map((n) => [n, '[redacted]']))),
      arguments: JSON.stringify(args),
      gate_reason: reason,
    });
    return this.settle(row, signal);
  }

  /**
   * The stored decision of this call: one bound to it that no earlier call of this attempt used,
   * preferably the one at the same place in the step.
   */
  private async storedDecision(
    index: number,
    binding: CallBinding,
  ): Promise<approvals.ToolApprovalRow | undefined> {
    const rows = await approvals.listStepApprovals(this.o.ctx.db, this.o.run.id, this.o.position);
    // No await from here until it is marked used: calls made together never share a decision.
    const free = rows.filter((r) => !this.used.has(r.id) && isBoundTo(r, binding));
    const row = free.find((r) => r.call_index === index) ?? free[0];
    if (row) this.used.add(row.id);
    return row;
  }

  /**
   * Records a new pending call at its place in the step, or after the step's last recorded call when
   * that place holds another call's decision (a resumed model that now calls something else).
   */
  private async openApproval(
    index: number,
    binding: CallBinding,
    call: Pick<
      approvals.ToolApprovalRow,
      'tool_id' | 'tool_name' | 'method' | 'url' | 'destination' | 'headers' | 'arguments' | 'gate_reason'
    >,
  ): Promise<approvals.ToolApprovalRow> {
    const { ctx, run, position } = this.o;
    for (let attempt = 0; attempt < 5; attempt++) {
      const taken = await approvals.listStepApprovals(ctx.db, run.id, position);
      const callIndex = taken.some((r) => r.call_index === index)
        ? Math.max(index, ...taken.map((r) => r.call_index)) + 1
        : index;
      const id = randomUUID();
      const ts = new Date().toISOString();
      const stored = await approvals.insertPendingApproval(ctx.db, {
        ...call,
        id,
        run_id: run.id,
        user_id: run.user_id,
        position,
        call_index: callIndex,
        server_tool: binding.serverTool,
        proposed_digest: binding.proposedDigest,
        status: 'pending',
        edited: 0,
        reason: null,
        result: null,
        decided_by: null,
        decided_at: null,
        created_at: ts,
        updated_at: ts,
      });
      // Another writer took the place first: take its row only when it is this very call.
      if (stored.id === id || (isBoundTo(stored, binding) && !this.used.has(stored.id))) {
        this.used.add(stored.id);
        return stored;
      }
    }
    throw new Error('The tool call could not be recorded for approval');
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

  private async settle(row: approvals.ToolApprovalRow, signal?: AbortSignal): Promise<HttpToolResult> {
    const { ctx } = this.o;
    switch (row.status) {
      case 'rejected':
        return { error: `${REJECTED_RESULT_PREFIX}${row.reason ?? ''}` };
      case 'done':
        return parseResult(row.result);
      case 'executing': {
        // Claimed before an interruption: it may have been sent, so it is never sent again on its
        // own; the run asks the person what became of it (issue 46 row 8).
        await approvals.markInterrupted(ctx.db, row.id);
        const now = await approvals.findApproval(ctx.db, row.id);
        if (!now) return { error: 'The approval is gone.' };
        // Its result arrived meanwhile (done), or it waits for the person's answer now.
        return now.status === 'executing' ? this.wait(now) : this.settle(now, signal);
      }
      case 'approved': {
        if (!(await approvals.claimApproved(ctx.db, row.id))) {
          const now = await approvals.findApproval(ctx.db, row.id);
          return now ? this.settle(now, signal) : { error: 'The approval is gone.' };
        }
        const result = await this.sendApproved(row, signal);
        await approvals.storeResult(ctx.db, row.id, result);
        return result;
      }
      default:
        // pending (to be decided) or interrupted (to be answered): the run pauses before the call.
        return this.wait(row);
    }
  }

  private wait(row: approvals.ToolApprovalRow): never {
    this.pending = row;
    this.o.abort.abort(new ApprovalPending(row));
    throw new ApprovalPending(row);
  }

  /**
   * Sends the approved call as it was approved: the row's method, destination and arguments; an MCP
   * call goes to the approved tool's server with that tool's own headers and the approved server
   * tool, never with whatever tool the step offers now.
   */
  private async sendApproved(row: approvals.ToolApprovalRow, signal?: AbortSignal): Promise<HttpToolResult> {
    const { ctx } = this.o;
    const args = asArguments(parseJson(row.arguments));
    if (row.method !== 'MCP')
      return sendHttpCall(
        ctx,
        describeHttpCall(row.method, row.url, args),
        signal,
        this.ledger(row.tool_name),
      );
    const [server] = await runEngineOf(ctx).ports.tools(ctx, [row.tool_id]);
    if (server?.kind !== 'mcp' || row.server_tool === null)
      return { error: 'The MCP tool of this approved call is no longer available.' };
    // Its headers belong to the server it has now: a server moved since the approval gets nothing.
    if (server.mcp_url !== row.url)
      return { error: 'The MCP server of this approved call has changed since; the call was not sent.' };
    return sendMcpCall(
      ctx,
      { ...server, mcp_tool: row.server_tool },
      args,
      signal,
      this.ledger(row.tool_name),
    );
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
