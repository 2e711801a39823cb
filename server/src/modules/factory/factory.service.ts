import { randomUUID } from 'node:crypto';
import {
  type TAgent,
  type TCrew,
  type TCrewInputSchema,
  type TFlow,
  type TTool,
  toolRequiresApprovalByDefault,
  type ZCreateAgentRequest,
  type ZCreateCrewRequest,
  type ZCreateFlowRequest,
  type ZCreateToolRequest,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { assertShareable } from '../../platform/access.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { loadViewer } from '../../platform/viewer.ts';
import {
  parseJson,
  presentAgent,
  presentCrew,
  presentFlow,
  httpMethodOf,
  presentTool,
  type StoredCrewTask,
  type StoredFlowStep,
} from './factory.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import {
  assertMayPublish,
  FACTORY_CREATOR_LEVELS,
  factoryItemRights,
  factoryItemVisible,
  isForeignItem,
} from './factory.policy.ts';
import { mcpColumns, selectMcpTools, splitToolRef } from './factory.mcp.ts';
import { sideEffectFreeCheck } from '../outbound-allowlist/outbound-allowlist.service.ts';
import { resolveRef } from './factory.refs.ts';
import * as repo from './factory.repository.ts';

const LABELS: Record<repo.FactoryTable, string> = {
  factory_agents: 'Agent',
  factory_tools: 'Tool',
  factory_crews: 'Crew',
  factory_flows: 'Flow',
};

const DEFAULT_HTTP_INPUT_SCHEMA = {
  type: 'object',
  properties: { input: { type: 'string', description: 'What to send to the endpoint' } },
};

const visible = factoryItemVisible;

type Shared<R> = R & { shared_org_ids: string[] };

/** The rows with the organizations each is shared with (what visibility and the presenters read). */
async function withShares<R extends { id: string }>(ctx: AppContext, rows: R[]): Promise<Shared<R>[]> {
  const shares = await repo.sharesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, shared_org_ids: shares.get(r.id) ?? [] }));
}

/**
 * The organizations an owner shares an item with must be their own (ids it is already shared with
 * may stay): checked before anything is written. Undefined on an update keeps the current shares.
 */
async function assertMayShare(
  ctx: AppContext,
  caller: AuthUser,
  wanted: readonly string[] | undefined,
  current: readonly string[] = [],
): Promise<void> {
  if (wanted?.length) assertShareable((await loadViewer(ctx, caller)).levels, wanted, current);
}

async function saveShares(ctx: AppContext, itemId: string, wanted: readonly string[] | undefined) {
  if (wanted !== undefined) await repo.replaceShares(ctx.db, itemId, wanted);
}

function assertCreator(caller: AuthUser): void {
  if (!FACTORY_CREATOR_LEVELS.has(caller.user_level))
    throw forbidden('Only a CEO or an administrator can create factory items.');
}

/** The list of a table: what the caller may see, with its shares. */
async function visibleRows<T extends repo.FactoryTable>(ctx: AppContext, table: T, caller: AuthUser) {
  return withShares(ctx, await repo.listVisible(ctx.db, table, await loadViewer(ctx, caller)));
}

async function loadVisible<T extends repo.FactoryTable>(
  ctx: AppContext,
  table: T,
  caller: AuthUser,
  id: string,
): Promise<Shared<repo.FactoryRow<T>>> {
  const found = await repo.findById(ctx.db, table, id);
  if (!found) throw notFound(`${LABELS[table]} not found`);
  const [row] = await withShares(ctx, [found]);
  if (!visible(row, await loadViewer(ctx, caller))) throw notFound(`${LABELS[table]} not found`);
  return row;
}

async function loadEditable<T extends repo.FactoryTable>(
  ctx: AppContext,
  table: T,
  caller: AuthUser,
  id: string,
): Promise<Shared<repo.FactoryRow<T>>> {
  const row = await loadVisible(ctx, table, caller, id);
  if (!factoryItemRights(row, caller.id).canEdit)
    throw forbidden(`Only the owner can edit this ${LABELS[table].toLowerCase()}.`);
  return row;
}

/** Every referenced id must name an item the caller may see. */
async function assertVisibleIds(
  ctx: AppContext,
  table: 'factory_agents' | 'factory_tools',
  caller: AuthUser,
  ids: readonly string[],
): Promise<void> {
  const unique = [...new Set(ids)];
  // A tool reference may name one tool of an MCP server: `<tool id>:<name>`.
  const rowIds = [...new Set(unique.map((ref) => splitToolRef(ref).id))];
  const [rows, viewer] = await Promise.all([
    repo.findByIds(ctx.db, table, rowIds).then((found) => withShares(ctx, found)),
    loadViewer(ctx, caller),
  ]);
  const seen = new Map(rows.filter((r) => visible(r, viewer)).map((r) => [r.id, r]));
  const missing = unique.filter((ref) => {
    const { id, mcpTool } = splitToolRef(ref);
    const row = seen.get(id);
    if (!row || mcpTool === null) return !row;
    return !parseJson<{ name: string }[]>((row as { mcp_tools?: string | null }).mcp_tools ?? null, []).some(
      (t) => t.name === mcpTool,
    );
  });
  if (missing.length)
    throw new AppError(422, `Unknown ${LABELS[table].toLowerCase()}: ${missing.join(', ')}`);
}

async function nameMaps(ctx: AppContext, agentIds: string[], toolIds: string[]) {
  const [agents, tools] = await Promise.all([
    repo.findByIds(ctx.db, 'factory_agents', [...new Set(agentIds)]),
    repo.findByIds(ctx.db, 'factory_tools', [...new Set(toolIds)]),
  ]);
  return {
    agents: new Map(agents.map((a) => [a.id, a.name])),
    tools: new Map(tools.map((t) => [t.id, t.name])),
  };
}

async function presentCrews(ctx: AppContext, caller: AuthUser, rows: repo.CrewRow[]): Promise<TCrew[]> {
  const ids = rows.flatMap((r) => [
    ...parseJson<string[]>(r.agent_ids, []),
    ...parseJson<StoredCrewTask[]>(r.tasks, []).flatMap((t) => (t.agent_id ? [t.agent_id] : [])),
  ]);
  const { agents } = await nameMaps(ctx, ids, []);
  return rows.map((r) => presentCrew(r, caller.id, agents));
}

async function presentFlows(ctx: AppContext, caller: AuthUser, rows: repo.FlowRow[]): Promise<TFlow[]> {
  const steps = rows.flatMap((r) => parseJson<StoredFlowStep[]>(r.steps, []));
  const { agents, tools } = await nameMaps(
    ctx,
    steps.flatMap((s) => (s.agent_id ? [s.agent_id] : [])),
    steps.flatMap((s) => (s.tool_id ? [s.tool_id] : [])),
  );
  return rows.map((r) => presentFlow(r, caller.id, agents, tools));
}

async function deleteItem(ctx: AppContext, table: repo.FactoryTable, caller: AuthUser, id: string) {
  const row = await loadVisible(ctx, table, caller, id);
  if (row.is_auto_gen === 1 || row.is_public === 1)
    throw forbidden(`Auto-generated and public items cannot be deleted.`);
  if (row.created_by !== caller.id)
    throw forbidden(`Only the owner can delete this ${LABELS[table].toLowerCase()}.`);
  await repo.remove(ctx.db, table, id);
}

const baseColumns = (caller: AuthUser) => {
  const now = nowIso();
  return {
    id: randomUUID(),
    builtin_key: null,
    is_auto_gen: 0,
    created_by: caller.id,
    created_at: now,
    updated_at: now,
  };
};

// ---------- agents ----------

type AgentInput = z.output<typeof ZCreateAgentRequest>;

function agentColumns(input: AgentInput) {
  return {
    name: input.name,
    description: input.description,
    role: input.role,
    goal: input.goal,
    backstory: input.backstory,
    llm_model: input.llmModel,
    tool_ids: JSON.stringify(input.toolIds),
    is_public: input.is_public ? 1 : 0,
  };
}

export async function listAgents(ctx: AppContext, caller: AuthUser): Promise<TAgent[]> {
  const rows = await visibleRows(ctx, 'factory_agents', caller);
  return rows.map((r) => presentAgent(r, caller.id));
}

export async function getAgent(ctx: AppContext, caller: AuthUser, id: string): Promise<TAgent> {
  return presentAgent(await loadVisible(ctx, 'factory_agents', caller, id), caller.id);
}

export async function createAgent(ctx: AppContext, caller: AuthUser, input: AgentInput): Promise<TAgent> {
  assertCreator(caller);
  assertMayPublish(caller, input.is_public);
  await assertMayShare(ctx, caller, input.shared_org_ids);
  await assertVisibleIds(ctx, 'factory_tools', caller, input.toolIds);
  const row = { ...baseColumns(caller), ...agentColumns(input) };
  await repo.insert(ctx.db, 'factory_agents', row);
  await saveShares(ctx, row.id, input.shared_org_ids ?? []);
  return getAgent(ctx, caller, row.id);
}

export async function updateAgent(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  input: AgentInput,
  pre: Precondition = ANY_VERSION,
) {
  const current = await loadEditable(ctx, 'factory_agents', caller, id);
  pre.check(current.updated_at);
  assertMayPublish(caller, input.is_public, current);
  await assertMayShare(ctx, caller, input.shared_org_ids, current.shared_org_ids);
  await assertVisibleIds(ctx, 'factory_tools', caller, input.toolIds);
  await repo.update(ctx.db, 'factory_agents', id, {
    ...agentColumns(input),
    updated_at: nextVersion(current.updated_at),
  });
  await saveShares(ctx, id, input.shared_org_ids);
  return getAgent(ctx, caller, id);
}

export const deleteAgent = (ctx: AppContext, caller: AuthUser, id: string) =>
  deleteItem(ctx, 'factory_agents', caller, id);

// ---------- tools ----------

type ToolInput = z.output<typeof ZCreateToolRequest>;

/** The columns of a saved tool; an MCP tool lists its server's tools now (422 when it cannot). */
async function toolColumns(ctx: AppContext, input: ToolInput, current: repo.ToolRow | null) {
  const mcp =
    input.kind === 'mcp' && input.mcp
      ? await mcpColumns(ctx, input.mcp, current)
      : { mcp_url: null, mcp_headers: null, mcp_tools: null };
  return {
    ...mcp,
    name: input.name,
    description: input.description,
    kind: input.kind,
    function_name: input.kind === 'builtin' ? (input.function_name ?? null) : null,
    http_url: input.kind === 'http' ? (input.http?.url ?? null) : null,
    http_method: input.kind === 'http' ? (input.http?.method ?? null) : null,
    input_schema: JSON.stringify(input.input_schema ?? DEFAULT_HTTP_INPUT_SCHEMA),
    // Omitted (an older client): the default for what the tool now is, never a weaker stored value.
    requires_approval:
      (input.requires_approval ?? toolRequiresApprovalByDefault(input.kind, input.http?.method)) ? 1 : 0,
    is_public: input.is_public ? 1 : 0,
  };
}

export async function listTools(ctx: AppContext, caller: AuthUser): Promise<TTool[]> {
  const rows = await visibleRows(ctx, 'factory_tools', caller);
  const sideEffectFree = await sideEffectFreeCheck(ctx);
  return rows.map((r) => presentTool(r, caller.id, sideEffectFree));
}

export async function getTool(ctx: AppContext, caller: AuthUser, id: string): Promise<TTool> {
  const row = await loadVisible(ctx, 'factory_tools', caller, id);
  return presentTool(row, caller.id, await sideEffectFreeCheck(ctx));
}

export async function createTool(ctx: AppContext, caller: AuthUser, input: ToolInput): Promise<TTool> {
  assertCreator(caller);
  assertMayPublish(caller, input.is_public);
  await assertMayShare(ctx, caller, input.shared_org_ids);
  const row = { ...baseColumns(caller), ...(await toolColumns(ctx, input, null)) };
  await repo.insert(ctx.db, 'factory_tools', row);
  await saveShares(ctx, row.id, input.shared_org_ids ?? []);
  return getTool(ctx, caller, row.id);
}

export async function updateTool(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  input: ToolInput,
  pre: Precondition = ANY_VERSION,
) {
  const current = await loadEditable(ctx, 'factory_tools', caller, id);
  pre.check(current.updated_at);
  assertMayPublish(caller, input.is_public, current);
  await assertMayShare(ctx, caller, input.shared_org_ids, current.shared_org_ids);
  await repo.update(ctx.db, 'factory_tools', id, {
    ...(await toolColumns(ctx, input, current)),
    updated_at: nextVersion(current.updated_at),
  });
  await saveShares(ctx, id, input.shared_org_ids);
  return getTool(ctx, caller, id);
}

export const deleteTool = (ctx: AppContext, caller: AuthUser, id: string) =>
  deleteItem(ctx, 'factory_tools', caller, id);

// ---------- crews ----------

type CrewInput = z.output<typeof ZCreateCrewRequest>;

/** Each task's agent, given by id or name (agent_id, agent, agent_name), as a visible agent's id. */
async function crewTaskAgents(ctx: AppContext, caller: AuthUser, input: CrewInput) {
  const ids: (string | null)[] = [];
  for (const [i, t] of (input.tasks ?? []).entries()) {
    const at = (field: string) => ['tasks', i, field];
    ids.push(
      await resolveRef(ctx, caller, 'factory_agents', [
        { path: at('agent_id'), value: t.agent_id, as: 'id' },
        { path: at('agent'), value: t.agent, as: 'id-or-name' },
        { path: at('agent_name'), value: t.agent_name, as: 'name' },
      ]),
    );
  }
  return ids;
}

async function crewColumns(ctx: AppContext, caller: AuthUser, input: CrewInput) {
  const taskAgents = await crewTaskAgents(ctx, caller, input);
  const taskAgentIds = taskAgents.filter((id): id is string => !!id);
  const agentIds = input.agentIds.length ? input.agentIds : [...new Set(taskAgentIds)];
  await assertVisibleIds(ctx, 'factory_agents', caller, agentIds);
  let tasks: StoredCrewTask[];
  if (input.tasks?.length) {
    tasks = input.tasks.map((t, i) => ({
      name: t.name ?? t.title ?? `Task ${i + 1}`,
      description: t.description,
      expected_output: t.expected_output,
      agent_id: taskAgents[i],
      human_input: t.human_input,
    }));
  } else {
    // The Factory dialog names agents only: each contributes one task, in the order given.
    const agents = new Map((await repo.findByIds(ctx.db, 'factory_agents', agentIds)).map((a) => [a.id, a]));
    tasks = agentIds.map((id, i) => {
      const agent = agents.get(id);
      return {
        name: `${agent?.name ?? 'Agent'} contribution`,
        description: `${i === 0 ? 'Start the work' : 'Build on the previous results'} for "${input.name}"${
          input.description ? `: ${input.description}` : ''
        }. Act as ${agent?.role ?? 'a specialist'} with the goal: ${agent?.goal ?? 'help the user'}.`,
        expected_output: 'A concise markdown section with findings and next steps',
        agent_id: id,
        human_input: false,
      };
    });
  }
  return {
    name: input.name,
    description: input.description,
    version: input.version,
    agent_ids: JSON.stringify(agentIds),
    requires_input: input.requires_input || input.input_fields.length > 0 ? 1 : 0,
    input_fields: JSON.stringify(
      input.input_fields.map((f) => ({ name: f.name, label: f.label, required: f.required })),
    ),
    tasks: JSON.stringify(tasks),
    is_public: input.is_public ? 1 : 0,
  };
}

export async function listCrews(ctx: AppContext, caller: AuthUser): Promise<TCrew[]> {
  return presentCrews(ctx, caller, await visibleRows(ctx, 'factory_crews', caller));
}

export async function getCrew(ctx: AppContext, caller: AuthUser, id: string): Promise<TCrew> {
  const [crew] = await presentCrews(ctx, caller, [await loadVisible(ctx, 'factory_crews', caller, id)]);
  return crew;
}

export async function createCrew(ctx: AppContext, caller: AuthUser, input: CrewInput): Promise<TCrew> {
  assertCreator(caller);
  assertMayPublish(caller, input.is_public);
  await assertMayShare(ctx, caller, input.shared_org_ids);
  const row = { ...baseColumns(caller), ...(await crewColumns(ctx, caller, input)) };
  await repo.insert(ctx.db, 'factory_crews', row);
  await saveShares(ctx, row.id, input.shared_org_ids ?? []);
  return getCrew(ctx, caller, row.id);
}

export async function updateCrew(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  input: CrewInput,
  pre: Precondition = ANY_VERSION,
) {
  const current = await loadEditable(ctx, 'factory_crews', caller, id);
  pre.check(current.updated_at);
  assertMayPublish(caller, input.is_public, current);
  await assertMayShare(ctx, caller, input.shared_org_ids, current.shared_org_ids);
  const cols = await crewColumns(ctx, caller, input);
  await repo.update(ctx.db, 'factory_crews', id, { ...cols, updated_at: nextVersion(current.updated_at) });
  await saveShares(ctx, id, input.shared_org_ids);
  return getCrew(ctx, caller, id);
}

export const deleteCrew = (ctx: AppContext, caller: AuthUser, id: string) =>
  deleteItem(ctx, 'factory_crews', caller, id);

export async function crewInputSchema(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
): Promise<TCrewInputSchema> {
  const crew = await getCrew(ctx, caller, id);
  return { requires_input: crew.requires_input, fields: crew.input_fields };
}

// ---------- flows ----------

type FlowInput = z.output<typeof ZCreateFlowRequest>;

async function flowColumns(ctx: AppContext, caller: AuthUser, input: FlowInput) {
  const steps: StoredFlowStep[] = [];
  for (const [i, s] of input.steps.entries()) {
    const at = (field: string) => ['steps', i, field];
    steps.push({
      // The schema guarantees one of the two.
      title: (s.title ?? s.name) as string,
      kind: s.kind,
      prompt: s.prompt,
      agent_id: await resolveRef(ctx, caller, 'factory_agents', [
        { path: at('agent_id'), value: s.agent_id, as: 'id' },
        { path: at('agent'), value: s.agent, as: 'id-or-name' },
      ]),
      tool_id: await resolveRef(ctx, caller, 'factory_tools', [
        { path: at('tool_id'), value: s.tool_id, as: 'id' },
        { path: at('tool'), value: s.tool, as: 'id-or-name' },
      ]),
      may_fail: s.may_fail,
    });
  }
  const toolless = steps.findIndex((s) => s.kind === 'tool' && !s.tool_id);
  if (toolless >= 0) throw new AppError(422, `Step ${toolless + 1} runs a tool: choose one`);
  return {
    name: input.name,
    description: input.description,
    version: input.version,
    steps: JSON.stringify(steps),
    is_public: input.is_public ? 1 : 0,
  };
}

export async function listFlows(ctx: AppContext, caller: AuthUser): Promise<TFlow[]> {
  return presentFlows(ctx, caller, await visibleRows(ctx, 'factory_flows', caller));
}

export async function getFlow(ctx: AppContext, caller: AuthUser, id: string): Promise<TFlow> {
  const [flow] = await presentFlows(ctx, caller, [await loadVisible(ctx, 'factory_flows', caller, id)]);
  return flow;
}

export async function createFlow(ctx: AppContext, caller: AuthUser, input: FlowInput): Promise<TFlow> {
  assertCreator(caller);
  assertMayPublish(caller, input.is_public);
  await assertMayShare(ctx, caller, input.shared_org_ids);
  const row = { ...baseColumns(caller), ...(await flowColumns(ctx, caller, input)) };
  await repo.insert(ctx.db, 'factory_flows', row);
  await saveShares(ctx, row.id, input.shared_org_ids ?? []);
  return getFlow(ctx, caller, row.id);
}

export async function updateFlow(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  input: FlowInput,
  pre: Precondition = ANY_VERSION,
) {
  const current = await loadEditable(ctx, 'factory_flows', caller, id);
  pre.check(current.updated_at);
  assertMayPublish(caller, input.is_public, current);
  await assertMayShare(ctx, caller, input.shared_org_ids, current.shared_org_ids);
  const cols = await flowColumns(ctx, caller, input);
  await repo.update(ctx.db, 'factory_flows', id, { ...cols, updated_at: nextVersion(current.updated_at) });
  await saveShares(ctx, id, input.shared_org_ids);
  return getFlow(ctx, caller, id);
}

export const deleteFlow = (ctx: AppContext, caller: AuthUser, id: string) =>
  deleteItem(ctx, 'factory_flows', caller, id);

// ---------- for the run engine ----------

/** The crew as a run needs it (visible to the caller, else 404). */
export async function crewForRun(ctx: AppContext, caller: AuthUser, id: string) {
  return loadVisible(ctx, 'factory_crews', caller, id);
}

/**
 * The flow by id, by name, or a built-in by its identifier (`strategic_flow`, shown as "Strategic
 * advice flow"), visible to the caller, else 404.
 */
export async function flowForRun(ctx: AppContext, caller: AuthUser, idOrName: string) {
  const viewer = await loadViewer(ctx, caller);
  const byId = await repo.findById(ctx.db, 'factory_flows', idOrName);
  const [shared] = byId ? await withShares(ctx, [byId]) : [];
  if (shared && visible(shared, viewer)) return shared;
  const byName = await repo.findVisibleByName(ctx.db, 'factory_flows', idOrName, viewer);
  if (byName) return byName;
  const builtin = await repo.findByBuiltinKey(ctx.db, 'factory_flows', `flow.${idOrName}`);
  if (builtin && visible(builtin, viewer)) return builtin;
  throw notFound('Flow not found');
}

/** The item is someone else's for this runner (its outbound calls need the runner's approval). */
export const isForeignForRunner = isForeignItem;

/** Agents and tools by id, for executing steps (already checked when the crew or flow was saved). */
export async function agentsByIds(ctx: AppContext, ids: readonly string[]) {
  return repo.findByIds(ctx.db, 'factory_agents', ids);
}
export async function toolsByIds(ctx: AppContext, refs: readonly string[]) {
  const ids = [...new Set(refs.map((ref) => splitToolRef(ref).id))];
  const rows = selectMcpTools(await repo.findByIds(ctx.db, 'factory_tools', ids), refs);
  // Read at each step: a destination taken off the allow-list gates the very next call.
  const sideEffectFree = await sideEffectFreeCheck(ctx);
  return rows.map((r) => ({
    ...r,
    side_effect_free: r.kind === 'http' && r.http_url && sideEffectFree(httpMethodOf(r), r.http_url) ? 1 : 0,
  }));
}
