import type { ToolSet } from 'ai';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import type { ActivityVia } from '../../modules/activity/activity.ledger.ts';
import { draftCommsMessageTool } from './draft-comms-message.ts';
import { externalCallRecorder } from './external-calls.ts';
import { internalSearchTool } from './internal-search.ts';
import { proposeTaskTool } from './propose-task.ts';
import { internetSearchAvailable, webSearchTool } from './web-search.ts';
import { workspaceSnapshotTool } from './workspace-snapshot.ts';

export const BUILTIN_TOOL_NAMES = [
  'internal_search',
  'workspace_snapshot',
  'web_search',
  'propose_task',
  'draft_comms_message',
] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/**
 * The built-in tools by name, bound to the invoking user: every tool reads with that user's identity
 * and the REST API's visibility rules; the model chooses only the inputs (never the user or the
 * organization scope). Mutating tools only propose. `web_search` is left out when no search provider
 * is configured; unknown names are ignored (the run engine adds its user-defined HTTP tools itself).
 */
export function buildTools(
  ctx: AppContext,
  user: AuthUser,
  names: readonly string[],
  /** Who the calls are made for in the ledger: the assistant (`ai`) or a run (`run:<id>`). */
  opts: { via?: ActivityVia } = {},
): ToolSet {
  const tools: ToolSet = {};
  for (const name of new Set(names)) {
    if (name === 'internal_search') tools[name] = internalSearchTool(ctx, user);
    else if (name === 'workspace_snapshot') tools[name] = workspaceSnapshotTool(ctx, user);
    else if (name === 'web_search' && internetSearchAvailable(ctx.config))
      tools[name] = webSearchTool(ctx.config, externalCallRecorder(ctx, user.id, opts.via ?? 'ai'));
    else if (name === 'propose_task') tools[name] = proposeTaskTool();
    else if (name === 'draft_comms_message') tools[name] = draftCommsMessageTool();
  }
  return tools;
}

export { internetSearchAvailable } from './web-search.ts';
export { sourcesOf, type Source } from './types.ts';
