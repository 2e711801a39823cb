import type { WorkspaceSnapshot } from '../context/workspace-snapshot.ts';
import type { InternalSearchOutput, WorkspaceSnapshotOutput } from '../tools/types.ts';
import type { OfflineHandlerInput, OfflineToolResult } from './types.ts';

/** Sample tool results and snapshots for the offline handlers' tests (not a test file itself). */

const kpi = {
  type: 'kpi' as const,
  id: 'k1',
  title: 'EU customers signed',
  goal_id: 'g1',
  goal_title: 'EU expansion',
  goal_owner_user_id: 'u1',
  organization_id: null,
  current_value: 1,
  target_value: 5,
  unit: 'customers',
  direction: 'higher_is_better',
  progress: 20,
  expected_progress: 67,
  forecast: { value_at_due: 2, on_track: false },
  lagging: true,
  last_checkin_date: '2026-11-10',
  stale: false,
  previous: { date: '2026-10-12', value: 0 },
};

const goal = (over: Partial<WorkspaceSnapshot['goals'][number]>): WorkspaceSnapshot['goals'][number] => ({
  type: 'goal' as const,
  id: 'g1',
  title: 'EU expansion',
  description: null,
  status: 'in_progress',
  due_date: '2027-03-31',
  organization_id: null,
  owner_user_id: 'u1',
  start_date: '2026-01-01',
  progress: 20,
  expected_progress: 67,
  risk: {
    at_risk: true,
    reasons: [
      '20% done, 67% expected by today',
      'KPI “EU customers signed” is forecast at 2 customers by the due date, short of its target of 5 customers',
    ],
  },
  overdue: false,
  days_overdue: 0,
  own: true,
  kpis: [kpi],
  ...over,
});

const task = (over: Partial<WorkspaceSnapshot['open_tasks'][number]>) => ({
  type: 'task' as const,
  id: 't1',
  title: 'Prepare the board deck',
  status: 'In Progress',
  priority: 'High',
  due_date: '2026-11-01',
  assigned_to_user_id: 'u1',
  created_by: 'u1',
  overdue: true,
  unassigned: false,
  ...over,
});

const goals = [
  goal({}),
  goal({
    id: 'g2',
    title: 'Ship the partner portal',
    due_date: '2026-10-01',
    progress: 40,
    expected_progress: 100,
    risk: { at_risk: false, reasons: [] },
    overdue: true,
    days_overdue: 54,
    kpis: [],
  }),
];
const boardDeck = task({});
const hire = task({
  id: 't2',
  title: 'Hire a DACH sales lead',
  status: 'To Do',
  priority: 'Medium',
  due_date: '2026-12-15',
  assigned_to_user_id: null,
  overdue: false,
  unassigned: true,
});

/** The full snapshot advice and task suggestions read. */
export const SNAPSHOT: WorkspaceSnapshot = {
  user: { id: 'u1', name: 'Olivia Tester', email: 'o@example.com', user_level: 'ceo' },
  today: '2026-11-24',
  generated_at: '2026-11-24T09:00:00.000Z',
  organization_ids: [],
  goals,
  at_risk_goals: [goals[0]],
  lagging_kpis: [kpi],
  overdue_goals: [goals[1]],
  open_tasks: [boardDeck, hire],
  overdue_tasks: [boardDeck],
  unassigned_tasks: [hire],
  notes: [{ type: 'note', id: 'n1', title: 'Board prep call', entry_date: '2026-11-20' }],
  counts: {
    goals: 2,
    at_risk_goals: 1,
    lagging_kpis: 1,
    overdue_goals: 1,
    open_tasks: 2,
    overdue_tasks: 1,
    unassigned_tasks: 1,
    notes: 1,
  },
  truncated: false,
};

/** What the workspace_snapshot tool returns for the same workspace. */
export const SNAPSHOT_TOOL: WorkspaceSnapshotOutput = {
  today: '2026-11-24',
  goals: goals.map((g) => ({
    id: g.id,
    title: g.title,
    status: g.status,
    due_date: g.due_date,
    progress: g.progress,
    expected_progress: g.expected_progress,
    risk: g.risk,
    overdue: g.overdue,
    kpis: g.kpis.map((k) => ({
      name: k.title,
      current_value: k.current_value,
      target_value: k.target_value,
      unit: k.unit,
      progress: k.progress,
      forecast: k.forecast,
      lagging: k.lagging,
      last_checkin_date: k.last_checkin_date,
      stale: k.stale,
      previous: k.previous,
    })),
  })),
  overdue_tasks: [boardDeck],
  open_tasks: [boardDeck, hire],
  open_task_count: 2,
  overdue_task_count: 1,
};

export const SEARCH_TOOL: InternalSearchOutput = {
  query: 'board deck',
  hits: [
    {
      type: 'task',
      id: 't1',
      title: 'Prepare the board deck',
      snippet: 'Q4 numbers and the EU pipeline for the board',
    },
    {
      type: 'note',
      id: 'n1',
      title: 'Board prep call',
      snippet: '## Notes\n- **Leo** wants the pipeline slide first',
    },
  ],
};

export const toolResult = (toolName: string, output: unknown): OfflineToolResult => ({
  toolName,
  toolCallId: `call-${toolName}`,
  output,
});

/** A handler input with defaults: no prompt, no system text. */
export const handlerInput = (o: Partial<OfflineHandlerInput>): OfflineHandlerInput => ({
  data: null,
  prompt: [],
  system: '',
  lastUserText: '',
  toolResults: [],
  requestedModelId: 'gpt-5-chat',
  ...o,
});
