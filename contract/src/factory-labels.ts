import {
  STRATEGIC_FLOW_DISPLAY_NAME,
  STRATEGIC_FLOW_NAME,
  type TBuiltinToolFunction,
  type TFlowStepKind,
  type TToolKind,
} from './factory.ts';

/**
 * What people see for the AI Factory's internal identifiers (issue 47 item 4): the API keeps the
 * identifiers (`internal_search`, `initial_goal`, `wait_for_human`), every screen shows these words.
 */
export const TOOL_KIND_LABELS: Record<TToolKind, string> = {
  builtin: 'Built-in function',
  http: 'HTTP endpoint',
  mcp: 'MCP server',
};

export const BUILTIN_FUNCTION_LABELS: Record<TBuiltinToolFunction, string> = {
  internal_search: 'Internal search',
  web_search: 'Web search',
  workspace_snapshot: 'Workspace snapshot',
  propose_task: 'Propose task',
  draft_comms_message: 'Draft comms message',
};

export const FLOW_STEP_KIND_LABELS: Record<TFlowStepKind, string> = {
  agent: 'Agent step',
  tool: 'Tool step',
  wait_for_human: 'Wait for human',
  strategic_advice: 'Write strategic advice',
};

/** The name of the free-text input of a crew that needs input but declares no fields (spec section 5). */
export const INITIAL_GOAL_INPUT = 'initial_goal';
export const INITIAL_GOAL_LABEL = 'Initial goal';

/** A run timeline event's type (`tool_call`, `approval_required`, …) in words. */
const RUN_EVENT_LABELS: Record<string, string> = {
  crew_start: 'Crew started',
  flow_start: 'Flow started',
  task_start: 'Task started',
  step_start: 'Step started',
  thought: 'Thought',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
  task_output: 'Task output',
  step_output: 'Step output',
  human_prompt: 'Question for you',
  wait_for_human: 'Waiting for a person',
  human_input: 'Answer given',
  approval_required: 'Approval needed',
  approval_granted: 'Approved',
  approval_rejected: 'Rejected',
  result: 'Result',
  crew_end: 'Crew finished',
  terminal: 'Finished',
  crew_error: 'Crew failed',
};

const sentence = (s: string) => {
  const w = s.replace(/[_-]+/g, ' ').trim();
  return w ? w.charAt(0).toUpperCase() + w.slice(1) : s;
};

export function runEventLabel(type: string): string {
  return RUN_EVENT_LABELS[type] ?? sentence(type);
}

/**
 * Any Factory identifier a screen or a run event would show (a built-in function, the initial_goal
 * input, the strategic flow) as its label; a name a person gave stays as they wrote it.
 */
export function factoryLabel(identifier: string): string {
  if (identifier in BUILTIN_FUNCTION_LABELS)
    return BUILTIN_FUNCTION_LABELS[identifier as TBuiltinToolFunction];
  if (identifier === INITIAL_GOAL_INPUT) return INITIAL_GOAL_LABEL;
  if (identifier === STRATEGIC_FLOW_NAME) return STRATEGIC_FLOW_DISPLAY_NAME;
  return identifier;
}
