import {
  BUILTIN_FUNCTION_LABELS as CONTRACT_FUNCTION_LABELS,
  type TAgent,
  type TCreateAgentRequest,
  type TCreateCrewRequest,
  type TCreateFlowRequest,
  type TCreateToolRequest,
  type TCrew,
  type TFlow,
  type TTool,
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

/** Labels of the built-in functions a tool can run (one map in the contract, issue 47 item 4). */
export const BUILTIN_FUNCTION_LABELS: Readonly<Record<string, string>> = CONTRACT_FUNCTION_LABELS;
