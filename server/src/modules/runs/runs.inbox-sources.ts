import type { InboxSources } from '../inbox/inbox.service.ts';
import { interruptedCallInboxHandler, toolApprovalInboxHandler } from './runs-approvals.service.ts';
import { runInputInboxHandler } from './runs.service.ts';

/** The approvals inbox items a run opens are settled by this module (docs/architecture.md, "Registrations"). */
export function registerRunInboxSources(sources: InboxSources): void {
  sources.register('run_input', runInputInboxHandler);
  sources.register('tool_approval', toolApprovalInboxHandler);
  sources.register('interrupted_call', interruptedCallInboxHandler);
}
