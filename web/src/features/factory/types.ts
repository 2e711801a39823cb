import type {
  TAgent,
  TCreateAgentRequest,
  TCreateCrewRequest,
  TCreateFlowRequest,
  TCreateToolRequest,
  TCrew,
  TFlow,
  TTool,
} from '@cc/contract';

export type { FactoryKind } from '../../lib/queries/factory-items';

export type Crew = TCrew;
export type Agent = TAgent;
export type Tool = TTool;
export type Flow = TFlow;
export type CreateCrewBody = TCreateCrewRequest;
export type CreateAgentBody = TCreateAgentRequest;
export type CreateToolBody = TCreateToolRequest;
export type CreateFlowBody = TCreateFlowRequest;

/** Labels of the built-in functions a tool can run (contract BUILTIN_TOOL_FUNCTIONS). */
export const BUILTIN_FUNCTION_LABELS: Record<string, string> = {
  internal_search: 'Internal search',
  web_search: 'Web search',
  workspace_snapshot: 'Workspace snapshot',
  propose_task: 'Propose task',
  draft_comms_message: 'Draft comms message',
};
