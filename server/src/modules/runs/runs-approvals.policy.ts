import type { ToolApprovalRow } from './engine/tool-approvals.repository.ts';

/**
 * Who may change the arguments of a call waiting for approval: only the run's owner. The call goes
 * out as the owner's, with the owner's headers; a delegate (the inbox item was handed to them)
 * approves or rejects exactly what they were shown (issue 46 row 7).
 */
export function mayEditArguments(approval: Pick<ToolApprovalRow, 'user_id'>, actorId: string): boolean {
  return approval.user_id === actorId;
}
