import {
  citationUrl,
  keyMayCallOperation,
  TASK_PRIORITIES,
  type TRecordCitation,
  ZContactListQuery,
  ZCreateJournalRequest,
  ZGoalListQuery,
  ZJournalListQuery,
  ZKpiCheckinRequest,
  ZTaskListQuery,
} from '@cc/contract';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { searchWorkspace } from '../../ai/search/search.ts';
import type { ApiKeyCaller } from '../../platform/auth/api-keys.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { argumentsDigest, recordActivitySafely } from '../activity/activity.ledger.ts';
import { putSuggestion } from '../comms/comms.suggestions.ts';
import { getContact, listContacts } from '../contacts/contacts.service.ts';
import { getGoal, listGoals } from '../goals/goals.service.ts';
import { recordCheckin } from '../goals/kpi-checkins.service.ts';
import { createJournal, getJournal, listJournals } from '../journals/journals.service.ts';
import { proposeTask } from '../task-suggestions/task-suggestions.service.ts';
import { getTask, listTasks } from '../tasks/tasks.service.ts';

/**
 * Every tool call of this server is written to the activity ledger (`mcp.<tool>`, via api): what
 * another assistant did with the key, with its arguments' digest and first 1 KB, and whether it was refused.
 */
function recordCalls(mcp: McpServer, ctx: AppContext, user: AuthUser, key: ApiKeyCaller): void {
  // The SDK's overloaded generic signature does not survive a wrapper's types: called as it was given.
  const register = mcp.registerTool.bind(mcp) as (
    name: string,
    config: unknown,
    cb: unknown,
  ) => RegisteredTool;
  mcp.registerTool = ((name: string, config: unknown, cb: unknown) => {
    const tool = register(name, config, cb);
    const inner = tool.handler as (args: unknown, extra: unknown) => Promise<CallToolResult>;
    tool.handler = (async (args: unknown, extra: unknown) => {
      const result = await inner(args, extra);
      await recordActivitySafely(ctx.db, {
        actorUserId: user.id,
        via: 'api',
        action: `mcp.${name}`,
        entityType: 'mcp_call',
        summary: `${result.isError ? 'Refused' : 'Called'} ${name} from an assistant (API key ${key.id.slice(0, 8)})`,
        after: { tool: name, arguments: argumentsDigest(args), refused: result.isError === true },
      });
      return result;
    }) as typeof tool.handler;
    return tool;
  }) as typeof mcp.registerTool;
}

/**
 * The REST operation each tool mirrors: a key is offered the tool when the contract's route → scope
 * table (`API_KEY_ROUTE_RULES`, the REST gate's own) lets it call that operation.
 */
export const MCP_TOOL_OPERATIONS = {
  list_goals: 'GET /api/strategic-goals',
  get_goal: 'GET /api/strategic-goals/{id}',
  list_tasks: 'GET /api/tasks',
  get_task: 'GET /api/tasks/{id}',
  list_contacts: 'GET /api/contacts',
  get_contact: 'GET /api/contacts/{id}',
  list_notes: 'GET /api/journals',
  get_note: 'GET /api/journals/{id}',
  record_kpi_checkin: 'POST /api/strategic-goals/{id}/kpis/{kpiId}/checkins',
  create_note: 'POST /api/journals',
  // Weaker than creating a task (the person approves it), so allowed to whoever may create one.
  propose_task: 'POST /api/tasks',
  draft_comms_message: 'PUT /api/comms/threads/{id}/suggestion',
} as const;
export type McpToolName = keyof typeof MCP_TOOL_OPERATIONS;

/** The read of each kind of search hit: a hit the key could not read through REST is left out. */
export const READ_OPERATION_OF_HIT: Record<string, string> = {
  goal: 'GET /api/strategic-goals/{id}',
  advice: 'GET /api/strategic-advice/{id}',
  task: 'GET /api/tasks/{id}',
  note: 'GET /api/journals/{id}',
  contact: 'GET /api/contacts/{id}',
};

const MCP_LIST_LIMIT = 50;
const ZLimit = z.number().int().min(1).max(MCP_LIST_LIMIT).optional();
const ZSearchText = z.string().max(200).optional();

function ok(data: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(data) }],
    structuredContent: data as Record<string, unknown>,
  };
}

/** A refusal the client's model can read (not found, not allowed, bad input): never a protocol error. */
function refused(err: unknown): CallToolResult {
  if (err instanceof AppError) {
    const text = typeof err.detail === 'string' ? err.detail : err.detail.map((d) => d.msg).join('; ');
    return { isError: true, content: [{ type: 'text', text }] };
  }
  if (err instanceof z.ZodError) {
    return { isError: true, content: [{ type: 'text', text: err.issues.map((i) => i.message).join('; ') }] };
  }
  throw err;
}

async function run(fn: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return ok(await fn());
  } catch (err) {
    return refused(err);
  }
}

const cite = (type: string, id: string, title: string): TRecordCitation => ({
  type,
  id,
  title,
  url: citationUrl(type, id),
});

/**
 * The workspace's tools for another assistant, bound to the key's owner: every read goes through the
 * domain services (the same visibility rules as the web), every write is a proposal or the owner's
 * own note, and only the tools the key's scopes allow are offered at all.
 */
export function registerWorkspaceTools(
  server: McpServer,
  ctx: AppContext,
  user: AuthUser,
  key: ApiKeyCaller,
) {
  const can = (tool: McpToolName) => keyMayCallOperation(key.scopes, MCP_TOOL_OPERATIONS[tool]);
  const readable = Object.entries(READ_OPERATION_OF_HIT).filter(([, op]) =>
    keyMayCallOperation(key.scopes, op),
  );
  recordCalls(server, ctx, user, key);

  if (readable.length > 0) {
    server.registerTool(
      'search_workspace',
      {
        description: 'Search the goals, tasks, notes and contacts you may see. Each hit cites its record.',
        inputSchema: { query: z.string().min(1).max(200), limit: z.number().int().min(1).max(20).optional() },
        annotations: { readOnlyHint: true },
      },
      ({ query, limit }) =>
        run(async () => {
          const types = new Set(readable.map(([t]) => t));
          const hits = (await searchWorkspace(ctx, user, query, limit ?? 8)).filter((h) => types.has(h.type));
          return {
            query,
            hits: hits.map((h) => ({ ...h, citation: cite(h.type, h.id, h.title) })),
          };
        }),
    );
  }

  if (can('list_goals')) {
    server.registerTool(
      'list_goals',
      {
        description: 'Strategic goals you may see, with their KPIs (current and target values).',
        inputSchema: { search: ZSearchText, limit: ZLimit },
        annotations: { readOnlyHint: true },
      },
      ({ search, limit }) =>
        run(async () => ({
          goals: await listGoals(ctx, user, ZGoalListQuery.parse({ search, limit: limit ?? 20 })),
        })),
    );
  }
  if (can('get_goal')) {
    server.registerTool(
      'get_goal',
      {
        description: 'One strategic goal with its KPIs.',
        inputSchema: { id: z.string().min(1).max(64) },
        annotations: { readOnlyHint: true },
      },
      ({ id }) =>
        run(async () => {
          const goal = await getGoal(ctx, user, id);
          return { goal, citation: cite('goal', id, goal.title) };
        }),
    );
  }

  if (can('list_tasks')) {
    server.registerTool(
      'list_tasks',
      {
        description: 'Tasks you may see (open ones unless include_completed).',
        inputSchema: { search: ZSearchText, include_completed: z.boolean().optional(), limit: ZLimit },
        annotations: { readOnlyHint: true },
      },
      ({ search, include_completed, limit }) =>
        run(async () => ({
          tasks: await listTasks(
            ctx,
            user,
            ZTaskListQuery.parse({
              search,
              include_completed: include_completed ? 'true' : 'false',
              limit: limit ?? 20,
            }),
          ),
        })),
    );
  }
  if (can('get_task')) {
    server.registerTool(
      'get_task',
      {
        description: 'One task.',
        inputSchema: { id: z.string().min(1).max(64) },
        annotations: { readOnlyHint: true },
      },
      ({ id }) => run(async () => ({ task: await getTask(ctx, user, id) })),
    );
  }

  if (can('list_contacts')) {
    server.registerTool(
      'list_contacts',
      {
        description: 'Contacts you may see.',
        inputSchema: { search: ZSearchText, limit: ZLimit },
        annotations: { readOnlyHint: true },
      },
      ({ search, limit }) =>
        run(async () => ({
          contacts: await listContacts(ctx, user, ZContactListQuery.parse({ search, limit: limit ?? 20 })),
        })),
    );
  }
  if (can('get_contact')) {
    server.registerTool(
      'get_contact',
      {
        description: 'One contact.',
        inputSchema: { id: z.string().min(1).max(64) },
        annotations: { readOnlyHint: true },
      },
      ({ id }) => run(async () => ({ contact: await getContact(ctx, user, id) })),
    );
  }

  if (can('list_notes')) {
    server.registerTool(
      'list_notes',
      {
        description: 'Your notes, newest first.',
        inputSchema: { search: ZSearchText, limit: ZLimit },
        annotations: { readOnlyHint: true },
      },
      ({ search, limit }) =>
        run(async () => ({
          notes: await listJournals(ctx, user, ZJournalListQuery.parse({ search, limit: limit ?? 20 })),
        })),
    );
  }
  if (can('get_note')) {
    server.registerTool(
      'get_note',
      {
        description: 'One of your notes.',
        inputSchema: { id: z.string().min(1).max(64) },
        annotations: { readOnlyHint: true },
      },
      ({ id }) => run(async () => ({ note: await getJournal(ctx, user, id) })),
    );
  }

  if (can('record_kpi_checkin')) {
    server.registerTool(
      'record_kpi_checkin',
      {
        description:
          "Record a KPI's value for a date (YYYY-MM-DD, default today); a second check-in on the same date replaces it.",
        inputSchema: {
          goal_id: z.string().min(1).max(64),
          kpi_id: z.string().min(1).max(64),
          value: z.number().finite(),
          date: z.string().optional(),
          note: z.string().max(1000).optional(),
        },
      },
      ({ goal_id, kpi_id, value, date, note }) =>
        run(async () => {
          const checkin = await recordCheckin(
            ctx,
            user,
            goal_id,
            kpi_id,
            ZKpiCheckinRequest.parse({ value, date, note }),
          );
          return { checkin, citation: cite('goal', goal_id, 'KPI check-in') };
        }),
    );
  }

  if (can('create_note')) {
    server.registerTool(
      'create_note',
      {
        description: 'Write a note in your notes (entry_date YYYY-MM-DD, default today).',
        inputSchema: { content: z.string().min(1).max(20_000), entry_date: z.string().optional() },
      },
      ({ content, entry_date }) =>
        run(async () => {
          const note = await createJournal(ctx, user, ZCreateJournalRequest.parse({ content, entry_date }));
          return { note, citation: cite('note', note.id, note.content.slice(0, 80)) };
        }),
    );
  }

  if (can('propose_task')) {
    server.registerTool(
      'propose_task',
      {
        description:
          'Propose a task. Nothing is created: the proposal waits for the person to approve, edit or reject it.',
        inputSchema: {
          title: z.string().min(1).max(200),
          description: z.string().max(2000).optional(),
          priority: z.enum(TASK_PRIORITIES).optional(),
          due_date: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/)
            .optional(),
        },
      },
      (input) =>
        run(async () => {
          const r = await proposeTask(ctx, user, {
            ...input,
            context: 'Proposed by an assistant through an API key.',
          });
          return r.duplicate
            ? { status: 'duplicate', note: 'A suggestion with this title is already waiting or was decided.' }
            : {
                status: 'proposed',
                note: 'Not created: the person must approve it.',
                suggestion: r.suggestion,
              };
        }),
    );
  }

  if (can('draft_comms_message')) {
    server.registerTool(
      'draft_comms_message',
      {
        description:
          'Draft a reply in one of your comms threads. Nothing is sent: the draft waits for the person to use or discard it.',
        inputSchema: { thread_id: z.string().min(1).max(64), text: z.string().min(1).max(4000) },
      },
      ({ thread_id, text }) =>
        run(async () => {
          const draft = await putSuggestion(ctx, user, thread_id, {
            text,
            context: 'Drafted by an assistant through an API key.',
          });
          return { status: 'drafted', note: 'Not sent: the person must use it.', draft };
        }),
    );
  }
}
