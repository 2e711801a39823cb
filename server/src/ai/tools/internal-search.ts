import { tool } from 'ai';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { MAX_SEARCH_HITS, searchWorkspace } from '../search/search.ts';
import type { InternalSearchOutput } from './types.ts';

/** Full-text search over the caller's visible records; the user is fixed here, never a model input. */
export const internalSearchTool = (ctx: AppContext, user: AuthUser) =>
  tool({
    description:
      "Search the user's workspace (goals, strategic advice, tasks, notes, contacts, files) by keywords. " +
      'Returns matching records with type, id, title and a snippet; cite them by title.',
    inputSchema: z.object({
      query: z.string().min(1).max(200).describe('keywords to look for'),
      limit: z.number().int().min(1).max(MAX_SEARCH_HITS).optional(),
    }),
    execute: async ({ query, limit }): Promise<InternalSearchOutput> => ({
      query,
      hits: await searchWorkspace(ctx, user, query, limit ?? 8),
    }),
  });
