import type {
  TAgent,
  TCrew,
  TCrewInputField,
  TCrewTask,
  TFlow,
  TFlowStep,
  TFlowStepKind,
  TTool,
  TToolKind,
} from '@cc/contract';
import type { McpStoredTool } from '../../ai/net/mcp-client.ts';
import { headerNamesOf } from '../../platform/secrets/sealed-headers.ts';
import { factoryItemRights } from './factory.policy.ts';
import type { AgentRow, CrewRow, FlowRow, ToolRow } from './factory.repository.ts';

/** A crew task as stored (JSON on the crew row). */
export interface StoredCrewTask {
  name: string;
  description: string;
  expected_output: string | null;
  agent_id: string | null;
  human_input: boolean;
}
/** A flow step as stored (JSON on the flow row). */
export interface StoredFlowStep {
  title: string;
  kind: TFlowStepKind;
  prompt: string | null;
  agent_id: string | null;
  tool_id: string | null;
  /** Absent on steps stored before issue 46: false. */
  may_fail?: boolean;
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

interface ItemRow {
  id: string;
  /** Attached by the service when it loads the row (factory_item_shares). */
  shared_org_ids?: readonly string[];
  is_auto_gen: number;
  is_public: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

function flags(row: ItemRow, callerId: string) {
  const r = factoryItemRights(row, callerId);
  return {
    isAutoGen: row.is_auto_gen === 1,
    is_public: row.is_public === 1,
    created_by: row.created_by,
    shared_org_ids: [...(row.shared_org_ids ?? [])],
    can_edit: r.canEdit,
    can_delete: r.canDelete,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentAgent(row: AgentRow, callerId: string): TAgent {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    role: row.role,
    goal: row.goal,
    backstory: row.backstory,
    llmModel: row.llm_model,
    toolIds: parseJson<string[]>(row.tool_ids, []),
    ...flags(row, callerId),
  };
}

/** Whether an administrator marked a method + URL side-effect-free (the outbound allow-list). */
export type SideEffectFree = (method: string, url: string) => boolean;

export function presentTool(row: ToolRow, callerId: string, sideEffectFree: SideEffectFree): TTool {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind as TToolKind,
    function_name: row.function_name,
    http: row.http_url ? { url: row.http_url, method: row.http_method === 'GET' ? 'GET' : 'POST' } : null,
    mcp: row.mcp_url
      ? {
          url: row.mcp_url,
          header_names: headerNamesOf(row.mcp_headers),
          tools: parseJson<McpStoredTool[]>(row.mcp_tools, []).map((t) => ({
            name: t.name,
            description: t.description,
            read_only: t.read_only === true,
            read_only_hint: t.read_only_hint === true,
            ref: `${row.id}:${t.name}`,
          })),
        }
      : null,
    input_schema: parseJson<Record<string, unknown>>(row.input_schema, {}),
    requires_approval: row.requires_approval === 1,
    side_effect_free:
      row.kind === 'http' && !!row.http_url && sideEffectFree(httpMethodOf(row), row.http_url),
    ...flags(row, callerId),
  };
}

/** The method an HTTP tool's calls use (anything but GET is sent as POST). */
export const httpMethodOf = (row: { http_method: string | null }) =>
  row.http_method === 'GET' ? 'GET' : 'POST';

export function crewTasksOf(row: CrewRow): StoredCrewTask[] {
  return parseJson<StoredCrewTask[]>(row.tasks, []);
}

export function crewInputFieldsOf(row: CrewRow): TCrewInputField[] {
  return parseJson<TCrewInputField[]>(row.input_fields, []);
}

export function presentCrew(row: CrewRow, callerId: string, agentNames: ReadonlyMap<string, string>): TCrew {
  const tasks: TCrewTask[] = crewTasksOf(row).map((t, position) => ({
    position,
    name: t.name,
    description: t.description,
    expected_output: t.expected_output,
    agent_id: t.agent_id,
    agent_name: t.agent_id ? (agentNames.get(t.agent_id) ?? null) : null,
    human_input: t.human_input,
  }));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    agentIds: parseJson<string[]>(row.agent_ids, []),
    requires_input: row.requires_input === 1,
    input_fields: crewInputFieldsOf(row),
    tasks,
    ...flags(row, callerId),
  };
}

export function flowStepsOf(row: FlowRow): StoredFlowStep[] {
  return parseJson<StoredFlowStep[]>(row.steps, []);
}

export function presentFlow(
  row: FlowRow,
  callerId: string,
  agentNames: ReadonlyMap<string, string>,
  toolNames: ReadonlyMap<string, string>,
): TFlow {
  const steps: TFlowStep[] = flowStepsOf(row).map((s, position) => ({
    position,
    title: s.title,
    name: s.title,
    kind: s.kind,
    prompt: s.prompt,
    agent_id: s.agent_id,
    agent: s.agent_id ? (agentNames.get(s.agent_id) ?? null) : null,
    tool_id: s.tool_id,
    tool: s.tool_id ? (toolNames.get(s.tool_id) ?? null) : null,
    may_fail: s.may_fail === true,
  }));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    steps,
    ...flags(row, callerId),
  };
}
