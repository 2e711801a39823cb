import { randomUUID } from 'node:crypto';
import type { Db } from '../index.ts';
import { STRATEGIC_FLOW_DISPLAY_NAME, STRATEGIC_FLOW_NAME } from '@cc/contract';

/**
 * The built-in AI Factory catalogue, marked Auto-Generated. Seeded on every start on every database
 * (not only the demo): each item is upserted by its `builtin_key`, so a restart, a second instance or
 * a newer catalogue never duplicates anything, and user-made items are never touched.
 */

interface BuiltinTool {
  key: string;
  name: string;
  description: string;
  function_name: string;
  input_schema: Record<string, unknown>;
}

const query = (description: string) => ({
  type: 'object',
  properties: { query: { type: 'string', description } },
  required: ['query'],
});

export const BUILTIN_TOOLS: BuiltinTool[] = [
  {
    key: 'tool.internal_search',
    name: 'Internal Search',
    description: "Searches the workspace's goals, advice, tasks, notes, contacts and files.",
    function_name: 'internal_search',
    input_schema: query('What to look for'),
  },
  {
    key: 'tool.web_search',
    name: 'Web Search',
    description: 'Searches the internet (when a search provider is configured).',
    function_name: 'web_search',
    input_schema: query('The search terms'),
  },
  {
    key: 'tool.workspace_snapshot',
    name: 'Workspace Snapshot',
    description: 'Goals with KPI progress, overdue and open tasks: the state of the business today.',
    function_name: 'workspace_snapshot',
    input_schema: { type: 'object', properties: {} },
  },
  {
    key: 'tool.propose_task',
    name: 'Propose Task',
    description: 'Proposes a task for a person to approve (it is never created without them).',
    function_name: 'propose_task',
    input_schema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        description: { type: 'string' },
        priority: { type: 'string' },
      },
      required: ['title'],
    },
  },
  {
    key: 'tool.draft_comms_message',
    name: 'Draft Comms Message',
    description: 'Drafts a message for the Comms Center; a person reviews and sends it.',
    function_name: 'draft_comms_message',
    input_schema: {
      type: 'object',
      properties: { recipient: { type: 'string' }, text: { type: 'string' } },
      required: ['text'],
    },
  },
];

interface BuiltinAgent {
  key: string;
  name: string;
  description: string;
  role: string;
  goal: string;
  backstory: string;
  tools: string[];
}

export const BUILTIN_AGENTS: BuiltinAgent[] = [
  {
    key: 'agent.strategist',
    name: 'Strategist',
    description: 'Turns the state of the business into priorities and decisions.',
    role: 'Chief strategy advisor',
    goal: 'Recommend the few moves that most advance the strategic goals',
    backstory:
      'A former operating partner who has coached many executive teams through growth and turnarounds.',
    tools: ['tool.workspace_snapshot', 'tool.internal_search'],
  },
  {
    key: 'agent.analyst',
    name: 'Analyst',
    description: 'Reads goals, KPIs and tasks and says what the numbers mean.',
    role: 'Business analyst',
    goal: 'Find the gaps between targets and reality, with evidence',
    backstory: 'Careful with numbers, always cites the record a figure came from.',
    tools: ['tool.workspace_snapshot', 'tool.internal_search'],
  },
  {
    key: 'agent.researcher',
    name: 'Researcher',
    description: 'Gathers facts from the workspace and, when configured, the web.',
    role: 'Market researcher',
    goal: 'Collect relevant, sourced facts about markets, customers and competitors',
    backstory: 'Has built research briefs for boards and investors; separates facts from opinions.',
    tools: ['tool.internal_search', 'tool.web_search'],
  },
  {
    key: 'agent.writer',
    name: 'Writer',
    description: 'Writes clear executive summaries, reports and messages.',
    role: 'Executive communications writer',
    goal: 'Turn findings into a short, actionable document',
    backstory: 'Writes for busy executives: the conclusion first, then the evidence, then the next steps.',
    tools: ['tool.propose_task', 'tool.draft_comms_message'],
  },
];

interface BuiltinCrew {
  key: string;
  name: string;
  description: string;
  requires_input: boolean;
  input_fields: { name: string; label: string | null; required: boolean }[];
  tasks: {
    name: string;
    description: string;
    expected_output: string;
    agent: string;
    human_input?: boolean;
  }[];
}

export const BUILTIN_CREWS: BuiltinCrew[] = [
  {
    key: 'crew.strategic_review',
    name: 'Strategic Review',
    description: 'Reviews goals and KPIs, sets priorities and writes an executive summary.',
    requires_input: false,
    input_fields: [],
    tasks: [
      {
        name: 'Assess goals and KPIs',
        description: 'Review every strategic goal and its KPIs; name the ones behind target and why.',
        expected_output: 'A list of goals with progress and the main gaps',
        agent: 'agent.analyst',
      },
      {
        name: 'Set priorities',
        description: 'From the assessment, choose the three priorities for the next month with owners.',
        expected_output: 'Three priorities, each with a reason and an owner',
        agent: 'agent.strategist',
      },
      {
        name: 'Write the executive summary',
        description: 'Write a one-page executive summary of the review and the priorities.',
        expected_output: 'A markdown executive summary',
        agent: 'agent.writer',
      },
    ],
  },
  {
    key: 'crew.market_research_brief',
    name: 'Market Research Brief',
    description: 'Researches a market question and writes a brief.',
    requires_input: true,
    input_fields: [
      { name: 'market', label: 'Which market or segment?', required: true },
      { name: 'question', label: 'What do you want to know?', required: false },
    ],
    tasks: [
      {
        name: 'Gather facts',
        description: 'Collect facts about the market and the question from the workspace and the web.',
        expected_output: 'Sourced facts',
        agent: 'agent.researcher',
      },
      {
        name: 'Analyse',
        description: 'Size the opportunity and name the risks, relating them to our goals.',
        expected_output: 'Opportunity, risks and fit with our goals',
        agent: 'agent.analyst',
      },
      {
        name: 'Write the brief',
        description: 'Write a two-page market brief with a recommendation.',
        expected_output: 'A markdown brief',
        agent: 'agent.writer',
      },
    ],
  },
  {
    key: 'crew.weekly_report',
    name: 'Weekly Report',
    description: "Summarises the week's progress on goals and tasks.",
    requires_input: false,
    input_fields: [],
    tasks: [
      {
        name: 'Collect the week',
        description: 'List goal progress, finished work and overdue tasks of the week.',
        expected_output: 'Facts of the week',
        agent: 'agent.analyst',
      },
      {
        name: 'Write the report',
        description: 'Write the weekly report: wins, misses, next week.',
        expected_output: 'A markdown weekly report',
        agent: 'agent.writer',
      },
    ],
  },
];

interface BuiltinFlow {
  key: string;
  name: string;
  description: string;
  steps: { title: string; kind: string; prompt: string | null; agent: string | null; tool: string | null }[];
}

export const BUILTIN_FLOWS: BuiltinFlow[] = [
  {
    // Shown by its display name; the API still starts it as `strategic_flow` (its built-in key).
    key: `flow.${STRATEGIC_FLOW_NAME}`,
    name: STRATEGIC_FLOW_DISPLAY_NAME,
    description: 'Generate Advice: reviews the workspace and writes a strategic advice record.',
    steps: [
      {
        title: 'Review goals and KPIs',
        kind: 'agent',
        prompt: 'Review the strategic goals, their KPIs and the open tasks; note what is behind.',
        agent: 'agent.analyst',
        tool: null,
      },
      {
        title: 'Write strategic advice',
        kind: 'strategic_advice',
        prompt: null,
        agent: 'agent.strategist',
        tool: null,
      },
    ],
  },
  {
    key: 'flow.task_plan_approval',
    name: 'Task Plan with Approval',
    description: 'Drafts a plan of tasks, asks a person to approve it, then writes the final plan.',
    steps: [
      {
        title: 'Draft the plan',
        kind: 'agent',
        prompt: 'Draft a short plan of tasks that would move the goals forward.',
        agent: 'agent.strategist',
        tool: null,
      },
      {
        title: 'Approval',
        kind: 'wait_for_human',
        prompt: 'Do you approve this plan? Answer "yes" or describe the changes you want.',
        agent: null,
        tool: null,
      },
      {
        title: 'Finalise the plan',
        kind: 'agent',
        prompt: 'Write the final plan, applying the approval answer.',
        agent: 'agent.writer',
        tool: null,
      },
    ],
  },
];

const common = (now: string) => ({ is_auto_gen: 1, is_public: 0, created_by: null, updated_at: now });

/** Inserts missing catalogue items and refreshes existing ones; returns the ids by key. */
export async function seedFactoryCatalogue(db: Db): Promise<Map<string, string>> {
  const now = new Date().toISOString();
  const ids = new Map<string, string>();
  const upsert = async (
    table: 'factory_agents' | 'factory_tools' | 'factory_crews' | 'factory_flows',
    key: string,
    values: Record<string, unknown>,
  ) => {
    const row = { ...common(now), ...values };
    // biome-ignore lint/suspicious/noExplicitAny: the four tables share these columns.
    const q = db as any;
    await q
      .insertInto(table)
      .values({ id: randomUUID(), builtin_key: key, created_at: now, ...row })
      .onConflict((oc: { column(c: string): { doUpdateSet(v: unknown): unknown } }) =>
        oc.column('builtin_key').doUpdateSet(row),
      )
      .execute();
    const found = await q
      .selectFrom(table)
      .select('id')
      .where('builtin_key', '=', key)
      .executeTakeFirstOrThrow();
    ids.set(key, found.id as string);
  };

  for (const t of BUILTIN_TOOLS) {
    await upsert('factory_tools', t.key, {
      name: t.name,
      description: t.description,
      kind: 'builtin',
      function_name: t.function_name,
      http_url: null,
      http_method: null,
      input_schema: JSON.stringify(t.input_schema),
    });
  }
  const ref = (key: string | null) => (key ? (ids.get(key) ?? null) : null);
  for (const a of BUILTIN_AGENTS) {
    await upsert('factory_agents', a.key, {
      name: a.name,
      description: a.description,
      role: a.role,
      goal: a.goal,
      backstory: a.backstory,
      llm_model: null,
      tool_ids: JSON.stringify(a.tools.map(ref)),
    });
  }
  for (const c of BUILTIN_CREWS) {
    const tasks = c.tasks.map((t) => ({
      name: t.name,
      description: t.description,
      expected_output: t.expected_output,
      agent_id: ref(t.agent),
      human_input: t.human_input ?? false,
    }));
    await upsert('factory_crews', c.key, {
      name: c.name,
      description: c.description,
      version: '1.0',
      agent_ids: JSON.stringify([...new Set(tasks.map((t) => t.agent_id))]),
      requires_input: c.requires_input ? 1 : 0,
      input_fields: JSON.stringify(c.input_fields),
      tasks: JSON.stringify(tasks),
    });
  }
  for (const f of BUILTIN_FLOWS) {
    await upsert('factory_flows', f.key, {
      name: f.name,
      description: f.description,
      version: '1.0',
      steps: JSON.stringify(
        f.steps.map((s) => ({
          title: s.title,
          kind: s.kind,
          prompt: s.prompt,
          agent_id: ref(s.agent),
          tool_id: ref(s.tool),
        })),
      ),
    });
  }
  return ids;
}
