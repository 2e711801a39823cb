/**
 * The model list of the OpenAI-compatible endpoint (OPENAI_BASE_URL: Ollama, vLLM, LM Studio, a
 * gateway), fetched from `/models` with a short timeout and cached, so GET /api/models and model
 * resolution never wait long on a slow or absent endpoint.
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

async function fetchIds(baseUrl: string, apiKey?: string): Promise<string[] | null> {
  try {
    const res = await fetch(modelsUrl(baseUrl), {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { data?: { id?: unknown }[] };
    return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
  } catch {
    return null;
  }
}

/** The cached list: undefined when never fetched, null when the endpoint did not answer. */
export function cachedCompatModels(baseUrl: string): string[] | null | undefined {
  return cache.get(baseUrl)?.ids;
}

/** The endpoint's model ids (fresh within a minute), or null when it is unreachable. */
export async function compatModels(baseUrl: string, apiKey?: string): Promise<string[] | null> {
  const e = cache.get(baseUrl);
  const now = Date.now();
  if (e?.pending) return e.pending;
  if (e && e.ids !== undefined && now - e.at < (e.ids ? OK_TTL_MS : FAIL_TTL_MS)) return e.ids;
  const pending = fetchIds(baseUrl, apiKey).then((ids) => {
    cache.set(baseUrl, { ids, at: Date.now() });
    return ids;
  });
  cache.set(baseUrl, { ids: e?.ids, at: e?.at ?? 0, pending });
  return pending;
}

/** Tests: forget cached lists. */
export function clearCompatModelCache(): void {
  cache.clear();
}
