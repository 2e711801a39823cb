import type { TCrewRun, TCrewRunStatus, TFlowRun, TFlowRunStatus } from '@cc/contract';
import type { RunRow } from './engine/runs.repository.ts';

function common(row: RunRow) {
  let inputs: Record<string, string> = {};
  try {
    inputs = JSON.parse(row.inputs) as Record<string, string>;
  } catch {
    inputs = {};
  }
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    inputs,
    result: row.result,
    error: row.error,
    current_step: row.current_step,
    human_prompt: row.human_prompt,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
  };
}

export function presentCrewRun(row: RunRow): TCrewRun {
  return {
    ...common(row),
    crew_run_id: row.id,
    crew_id: row.definition_id,
    crew_name: row.definition_name,
    status: row.status as TCrewRunStatus,
  };
}

export function presentFlowRun(row: RunRow): TFlowRun {
  return {
    ...common(row),
    flow_run_id: row.id,
    flow_id: row.definition_id,
    flow_name: row.definition_name,
    status: row.status as TFlowRunStatus,
  };
}
