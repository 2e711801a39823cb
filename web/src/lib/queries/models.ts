import { ALLOWED_MODELS, selectableModels, type TAiCapabilities, type TModelInfo } from '@cc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';

/**
 * GET /api/models, read once for every screen (AI Factory's agent form, the chat's model select).
 * One key, one shape: two shapes under one key once left the chat's select empty after a Factory visit.
 */
export const modelKeys = { all: ['models'] as const };

export interface ModelsInfo {
  /** The spec's models the server serves (all four when it lists none of them). */
  models: string[];
  /** Which engine serves each listed model. */
  engines: Record<string, string>;
  internetSearch: boolean | null;
  offline: boolean;
}

/** What a screen shows before the list arrives: the spec's four models. */
const PLACEHOLDER: ModelsInfo = {
  models: [...ALLOWED_MODELS],
  engines: {},
  internetSearch: null,
  offline: false,
};

/** GET /api/models may answer a list, or `{models, capabilities}`; both are read. */
export function readModels(data: unknown): ModelsInfo {
  const obj = (data && typeof data === 'object' ? data : {}) as {
    models?: TModelInfo[];
    capabilities?: Partial<TAiCapabilities>;
    internet_search?: boolean;
    offline?: boolean;
  };
  const list: TModelInfo[] = Array.isArray(data) ? (data as TModelInfo[]) : (obj.models ?? []);
  const caps = obj.capabilities ?? obj;
  const engines: Record<string, string> = {};
  for (const m of list) if (m && typeof m.id === 'string') engines[m.id] = m.engine;
  const models = selectableModels(list.filter((m) => m && m.available !== false));
  const offline =
    typeof caps.offline === 'boolean'
      ? caps.offline
      : models.length > 0 && models.every((id) => engines[id] === 'offline');
  return {
    models,
    engines,
    internetSearch: typeof caps.internet_search === 'boolean' ? caps.internet_search : null,
    offline,
  };
}

export const modelsQuery = () =>
  queryOptions({
    queryKey: modelKeys.all,
    queryFn: async ({ signal }): Promise<ModelsInfo> => {
      // The capabilities (internet search configured, offline engine) are optional for a select.
      const [list, caps] = await Promise.all([
        api<unknown>('/api/models', { signal }),
        api<TAiCapabilities>('/api/ai/capabilities', { signal }).catch(() => null),
      ]);
      return readModels(caps ? { models: Array.isArray(list) ? list : [], capabilities: caps } : list);
    },
    staleTime: 5 * 60_000,
  });

/** The selectable models (filtered to the spec's four, falling back to all four) and the capabilities. */
export function useModels() {
  return useQuery({ ...modelsQuery(), placeholderData: PLACEHOLDER });
}
