import { safeFetch } from './net/safe-fetch.ts';

/**
 * The model list of an OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, a gateway), fetched from
 * `/models` with a short timeout and cached, so GET /api/models and model resolution never wait long on
 * a slow or absent endpoint. An endpoint set from the screen (`allowlist` given) is read through the
 * outbound address policy.
 */
const OK_TTL_MS = 60_000;
const FAIL_TTL_MS = 10_000;
const FETCH_TIMEOUT_MS = 2_000;

interface Entry {
  /** undefined while the first fetch is under way */
  ids: string[] | null | undefined;
  at: number;
  pending?: Promise<string[] | null>;
}

const cache = new Map<string, Entry>();

export function modelsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/models`;
}

/** The ids of an OpenAI-style `{data: [{id}]}` list (anything else: none). */
export function modelIdsOf(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data
    .map((m) => (m as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200);
}

async function fetchIds(
  baseUrl: string,
  apiKey?: string,
  allowlist?: readonly string[],
): Promise<string[] | null> {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  try {
    if (allowlist) {
      const res = await safeFetch(modelsUrl(baseUrl), { headers, allowlist, timeoutMs: FETCH_TIMEOUT_MS });
      return res.status >= 200 && res.status < 300 ? modelIdsOf(res.json()) : null;
    }
    const res = await fetch(modelsUrl(baseUrl), { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!res.ok) return null;
    return modelIdsOf(await res.json());
  } catch {
    return null;
  }
}

const keyOf = (baseUrl: string, apiKey?: string) => `${baseUrl}\n${apiKey ?? ''}`;

/** The cached list: undefined when never fetched, null when the endpoint did not answer. */
export function cachedCompatModels(baseUrl: string, apiKey?: string): string[] | null | undefined {
  return cache.get(keyOf(baseUrl, apiKey))?.ids;
}

/** The endpoint's model ids (fresh within a minute), or null when it is unreachable. */
export async function compatModels(
  baseUrl: string,
  apiKey?: string,
  allowlist?: readonly string[],
): Promise<string[] | null> {
  const key = keyOf(baseUrl, apiKey);
  const e = cache.get(key);
  const now = Date.now();
  if (e?.pending) return e.pending;
  if (e && e.ids !== undefined && now - e.at < (e.ids ? OK_TTL_MS : FAIL_TTL_MS)) return e.ids;
  const pending = fetchIds(baseUrl, apiKey, allowlist).then((ids) => {
    cache.set(key, { ids, at: Date.now() });
    return ids;
  });
  cache.set(key, { ids: e?.ids, at: e?.at ?? 0, pending });
  return pending;
}

/** Forget cached lists (tests; and an administrator's change of the endpoint on this instance). */
export function clearCompatModelCache(): void {
  cache.clear();
}
