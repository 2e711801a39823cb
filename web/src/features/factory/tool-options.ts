import type { Tool } from './types';

export const MCP_ALL_TOOLS_SUFFIX = '(all tools)';

/**
 * What an agent can be given: every tool, and for an MCP server each tool it listed on its own
 * (`<tool id>:<name>`, docs/decisions/ 2026-11-24) besides the whole server.
 */
export function agentToolOptions(tools: readonly Tool[]): { id: string; name: string }[] {
  return tools.flatMap((t) =>
    t.kind === 'mcp' && t.mcp
      ? [
          { id: t.id, name: `${t.name} ${MCP_ALL_TOOLS_SUFFIX}` },
          ...t.mcp.tools.map((m) => ({ id: m.ref, name: `${t.name}: ${m.name}` })),
        ]
      : [{ id: t.id, name: t.name }],
  );
}
