import { z } from 'zod';
import { ZJsonObject, ZRefId } from './common.ts';
import { ZOrgIds } from './fields.ts';

/** A tool's input schema is stored as JSON text: this many characters at most. */
export const TOOL_INPUT_SCHEMA_MAX_CHARS = 20_000;

/**
 * AI Factory: agents, tools, crews and flows (spec sections 2, 3, 5, 7). Field names follow the spec:
 * camelCase where the screen names them (agentIds, llmModel, toolIds, isAutoGen), snake_case elsewhere.
 * Every item carries per-caller flags can_edit (the owner, never for auto-generated items) and
 * can_delete (the owner, and only when neither auto-generated nor public).
 */

export const AGENT_REQUIRED_FIELDS = 'Name, role and goal are required';
export const CREW_REQUIRED_FIELDS = 'Name and version are required';
export const TOOL_NAME_REQUIRED = 'Name is required';
export const FLOW_NAME_REQUIRED = 'Name is required';
export const FLOW_STEPS_REQUIRED = 'A flow needs at least one step';
export const TASK_DESCRIPTION_REQUIRED = 'Each task needs a description';
export const DEFAULT_FLOW_VERSION = '1.0';
export const DEFAULT_CREW_VERSION = '1.0';
/** When a crew requires input but declares no fields, the screen shows one free-text field with this name. */
export const DEFAULT_CREW_INPUT_FIELD = 'initial_goal';
/** The built-in flow behind Generate Advice, as the API addresses it (POST /api/flow/run/strategic_flow). */
export const STRATEGIC_FLOW_NAME = 'strategic_flow';
/** What people see for it in the Factory, the run picker and its runs (never the identifier). */
export const STRATEGIC_FLOW_DISPLAY_NAME = 'Strategic advice flow';

/** Built-in tool functions (server/src/ai/tools); a tool of kind "builtin" names one of these. */
export const BUILTIN_TOOL_FUNCTIONS = [
  'internal_search',
  'web_search',
  'workspace_snapshot',
  'propose_task',
  'draft_comms_message',
] as const;
export type TBuiltinToolFunction = (typeof BUILTIN_TOOL_FUNCTIONS)[number];

export const TOOL_KINDS = ['builtin', 'http', 'mcp'] as const;
export type TToolKind = (typeof TOOL_KINDS)[number];

/**
 * Flow step kinds: `agent` runs the step's agent (with its tools, or only `tool_id` when set);
 * `tool` calls the tool directly with the run's inputs; `wait_for_human` pauses the run with the
 * step's prompt until someone continues it; `strategic_advice` writes a strategic advice record.
 */
export const FLOW_STEP_KINDS = ['agent', 'tool', 'wait_for_human', 'strategic_advice'] as const;
export type TFlowStepKind = (typeof FLOW_STEP_KINDS)[number];

const ZItemFlags = {
  isAutoGen: z.boolean(),
  is_public: z.boolean(),
  /** The creator's user id; null for the built-in catalogue. */
  created_by: z.string().nullable(),
  /** Organizations the item is shared with: their members see and run it (issue 19 section 1). */
  shared_org_ids: z.array(z.string()),
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
};

// ---------- agents ----------

export const ZAgent = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  role: z.string(),
  goal: z.string(),
  backstory: z.string().nullable(),
  /** A model id (gpt-5-chat, gpt-5, gpt-5-mini, gemini-2.5-pro or a configured one); null = the default model. */
  llmModel: z.string().nullable(),
  toolIds: z.array(z.string()),
  ...ZItemFlags,
});
export type TAgent = z.infer<typeof ZAgent>;

const requiredText = (message: string, max: number) => z.string({ message }).trim().min(1, message).max(max);
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .optional()
    .transform((s) => (s == null || s.trim() === '' ? null : s.trim()));
const ZIdList = z
  .array(z.string().min(1).max(64))
  .max(50)
  .transform((ids) => [...new Set(ids)]);

/** POST /api/agents/ and PUT /api/agents/{id} (the PUT sends the whole agent). */
export const ZCreateAgentRequest = z.strictObject({
  name: requiredText(AGENT_REQUIRED_FIELDS, 200),
  role: requiredText(AGENT_REQUIRED_FIELDS, 500),
  goal: requiredText(AGENT_REQUIRED_FIELDS, 2_000),
  description: optionalText(4_000),
  backstory: optionalText(8_000),
  llmModel: optionalText(100),
  toolIds: ZIdList.default([]),
  is_public: z.boolean().default(false),
  /** Organizations of the owner to share with; omitted on an update keeps the current ones. */
  shared_org_ids: ZOrgIds.optional(),
});
export type TCreateAgentRequest = z.input<typeof ZCreateAgentRequest>;

// ---------- tools ----------

export const ZHttpToolConfig = z.object({
  url: z.string(),
  method: z.enum(['GET', 'POST']),
});

/** A tool an MCP server listed when its factory tool was saved; an agent can be given it alone. */
export const ZMcpListedTool = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /**
   * The tool's owner marked it read-only when saving (issue 46 row 5): a model's calls of it need no
   * approval. Every other listed tool waits for the runner's approval on each call.
   */
  read_only: z.boolean(),
  /** What the server itself claims (annotation readOnlyHint): shown as a hint, never trusted. */
  read_only_hint: z.boolean(),
  /** The reference an agent's toolIds use for this tool alone: `<tool id>:<name>`. */
  ref: z.string(),
});
export type TMcpListedTool = z.infer<typeof ZMcpListedTool>;

/** kind mcp: the server, its header names (values are secrets, never returned) and its tools. */
export const ZMcpToolConfig = z.object({
  url: z.string(),
  header_names: z.array(z.string()),
  tools: z.array(ZMcpListedTool),
});

export const ZTool = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  kind: z.enum(TOOL_KINDS),
  /** kind builtin: which built-in function runs. */
  function_name: z.string().nullable(),
  /** kind http: the endpoint the tool calls (through the SSRF-safe fetch); null = not configured yet. */
  http: ZHttpToolConfig.nullable(),
  /** kind mcp: the MCP server (Streamable HTTP) and the tools it listed. */
  mcp: ZMcpToolConfig.nullable(),
  /** JSON Schema (an object schema) of the tool's input, shown to the model. */
  input_schema: z.record(z.string(), z.unknown()),
  /** A run pauses before each call of this tool until its runner approves (issue 19 section 1). */
  requires_approval: z.boolean(),
  /**
   * kind http: a platform administrator marked this method + endpoint side-effect-free, so a model's
   * calls need no approval (unless requires_approval). Otherwise every model-chosen call waits.
   */
  side_effect_free: z.boolean(),
  ...ZItemFlags,
});
export type TTool = z.infer<typeof ZTool>;

/**
 * POST /api/tools/ and PUT /api/tools/{id}. The Factory dialog sends name and description only:
 * such a tool is an HTTP tool without an endpoint and is not offered to a model until one is set.
 */
export const ZCreateToolRequest = z
  .strictObject({
    name: requiredText(TOOL_NAME_REQUIRED, 200),
    description: optionalText(4_000),
    kind: z.enum(TOOL_KINDS).default('http'),
    function_name: z.enum(BUILTIN_TOOL_FUNCTIONS).nullable().optional(),
    http: z
      .strictObject({
        url: z.url({ protocol: /^https?$/, message: 'Endpoint must be an http(s) URL' }).max(2_000),
        method: z.enum(['GET', 'POST']).default('POST'),
      })
      .nullable()
      .optional(),
    /** kind mcp: headers omitted on an update keep the stored ones; `{}` removes them. */
    mcp: z
      .strictObject({
        url: z.url({ protocol: /^https?$/, message: 'The MCP server must be an http(s) URL' }).max(2_000),
        headers: z
          .record(
            z
              .string()
              .trim()
              .min(1)
              .max(200)
              .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'Not a header name'),
            z.string().max(4_000),
          )
          .refine((h) => Object.keys(h).length <= 20, 'At most 20 headers')
          .optional(),
        /**
         * Names of the server's tools the owner marks read-only (their calls need no approval); the
         * server's readOnlyHint is never taken for it. Omitted on an update keeps the current marks.
         */
        read_only_tools: z.array(z.string().min(1).max(200)).max(100).optional(),
      })
      .nullable()
      .optional(),
    input_schema: ZJsonObject(TOOL_INPUT_SCHEMA_MAX_CHARS).optional(),
    /** Omitted: the default for the tool's kind and method (see toolRequiresApprovalByDefault). */
    requires_approval: z.boolean().optional(),
    is_public: z.boolean().default(false),
    /** Organizations of the owner to share with; omitted on an update keeps the current ones. */
    shared_org_ids: ZOrgIds.optional(),
  })
  .refine((t) => t.kind !== 'builtin' || !!t.function_name, {
    message: 'A built-in tool needs a function_name',
    path: ['function_name'],
  })
  .refine((t) => t.kind !== 'mcp' || !!t.mcp, {
    message: 'An MCP tool needs its server URL',
    path: ['mcp', 'url'],
  });
export type TCreateToolRequest = z.input<typeof ZCreateToolRequest>;

/**
 * Issue 19 section 1: HTTP tools whose method is not GET/HEAD may write outside the workspace, so
 * they start gated; built-in tools only read or propose (a person accepts what they propose).
 */
export function toolRequiresApprovalByDefault(kind: TToolKind, method: string | null | undefined): boolean {
  return kind === 'http' && !['GET', 'HEAD'].includes((method ?? 'POST').toUpperCase());
}

// ---------- crews ----------

export const ZCrewInputField = z.object({
  name: z.string(),
  label: z.string().nullable(),
  required: z.boolean(),
});
export type TCrewInputField = z.infer<typeof ZCrewInputField>;

export const ZCrewTask = z.object({
  /** Position, 0-based; tasks run in this order. */
  position: z.number().int(),
  name: z.string(),
  description: z.string(),
  expected_output: z.string().nullable(),
  agent_id: z.string().nullable(),
  agent_name: z.string().nullable(),
  /** The run pauses before this task (awaiting_human_input) and gives it the person's answer. */
  human_input: z.boolean(),
});
export type TCrewTask = z.infer<typeof ZCrewTask>;

export const ZCrew = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  version: z.string(),
  agentIds: z.array(z.string()),
  requires_input: z.boolean(),
  input_fields: z.array(ZCrewInputField),
  tasks: z.array(ZCrewTask),
  ...ZItemFlags,
});
export type TCrew = z.infer<typeof ZCrew>;

const ZFieldName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z_][A-Za-z0-9_ -]*$/, 'Field names use letters, digits, spaces, _ and -');

/** An agent or tool named in a crew task or flow step: its id, or its name (spec section 3). */
const ZItemRef = z.string().trim().min(1).max(200).nullable().optional();

/**
 * A crew task. Its agent may be given as `agent_id` (an id), `agent` (an id or a name) or
 * `agent_name` (a name); when several are sent they must name the same agent. `title` is the
 * spec's other word for `name`.
 */
export const ZCrewTaskInput = z.strictObject({
  name: optionalText(200),
  title: optionalText(200),
  description: requiredText(TASK_DESCRIPTION_REQUIRED, 8_000),
  expected_output: optionalText(4_000),
  agent_id: ZRefId.nullable().optional(),
  agent: ZItemRef,
  agent_name: ZItemRef,
  human_input: z.boolean().default(false),
});

/**
 * POST /api/crews/ and PUT /api/crews/{id}. The Factory dialog sends name, description, version and
 * agentIds; without tasks the crew gets one task per agent, in the order of agentIds.
 */
export const ZCreateCrewRequest = z.strictObject({
  name: requiredText(CREW_REQUIRED_FIELDS, 200),
  version: requiredText(CREW_REQUIRED_FIELDS, 40),
  description: optionalText(4_000),
  agentIds: ZIdList.default([]),
  tasks: z.array(ZCrewTaskInput).max(20).optional(),
  requires_input: z.boolean().default(false),
  input_fields: z
    .array(
      z.strictObject({
        name: ZFieldName,
        label: optionalText(200),
        required: z.boolean().default(true),
      }),
    )
    .max(20)
    .default([]),
  is_public: z.boolean().default(false),
  /** Organizations of the owner to share with; omitted on an update keeps the current ones. */
  shared_org_ids: ZOrgIds.optional(),
});
export type TCreateCrewRequest = z.input<typeof ZCreateCrewRequest>;

/** GET /api/crews/{id}/input-schema. Empty fields with requires_input → show one `initial_goal` field. */
export const ZCrewInputSchema = z.object({
  requires_input: z.boolean(),
  fields: z.array(ZCrewInputField),
});
export type TCrewInputSchema = z.infer<typeof ZCrewInputSchema>;

// ---------- flows ----------

export const ZFlowStep = z.object({
  position: z.number().int(),
  title: z.string(),
  /** The same text as title (the spec reads "title or name"). */
  name: z.string(),
  kind: z.enum(FLOW_STEP_KINDS),
  /** What the agent is asked to do, or the question shown to the person for wait_for_human. */
  prompt: z.string().nullable(),
  agent_id: z.string().nullable(),
  agent: z.string().nullable(),
  tool_id: z.string().nullable(),
  tool: z.string().nullable(),
  /** A failed tool call of this step does not fail the run (the step's output says it failed). */
  may_fail: z.boolean(),
});
export type TFlowStep = z.infer<typeof ZFlowStep>;

export const ZFlow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  version: z.string(),
  steps: z.array(ZFlowStep),
  ...ZItemFlags,
});
export type TFlow = z.infer<typeof ZFlow>;

export const FLOW_STEP_TITLE_REQUIRED = 'Each step needs a title';

/**
 * A flow step: `title` or `name` (the same text); its agent as `agent_id` or `agent`, its tool as
 * `tool_id` or `tool` (`agent` and `tool` take an id or a name; both forms must agree when sent).
 */
export const ZFlowStepInput = z
  .strictObject({
    title: optionalText(200),
    name: optionalText(200),
    kind: z.enum(FLOW_STEP_KINDS).default('agent'),
    prompt: optionalText(8_000),
    agent_id: ZRefId.nullable().optional(),
    agent: ZItemRef,
    tool_id: ZRefId.nullable().optional(),
    tool: ZItemRef,
    /** By default a failed tool call fails its step and the run; true lets the flow go on. */
    may_fail: z.boolean().default(false),
  })
  .refine((s) => !!(s.title ?? s.name), { message: FLOW_STEP_TITLE_REQUIRED, path: ['title'] });
export type TFlowStepInput = z.input<typeof ZFlowStepInput>;

/** POST /api/flows/ and PUT /api/flows/{id}. */
export const ZCreateFlowRequest = z.strictObject({
  name: requiredText(FLOW_NAME_REQUIRED, 200),
  description: optionalText(4_000),
  version: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => (v ? v : DEFAULT_FLOW_VERSION)),
  steps: z.array(ZFlowStepInput).min(1, FLOW_STEPS_REQUIRED).max(30),
  is_public: z.boolean().default(false),
  /** Organizations of the owner to share with; omitted on an update keeps the current ones. */
  shared_org_ids: ZOrgIds.optional(),
});
export type TCreateFlowRequest = z.input<typeof ZCreateFlowRequest>;

/** DELETE answers. */
export const ZDeleted = z.object({ ok: z.literal(true) });
