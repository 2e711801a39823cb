import { tool } from 'ai';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import { safeFetch } from '../net/safe-fetch.ts';
import type { ExternalCallListener } from './external-calls.ts';
import type { WebSearchOutput } from './types.ts';

const MAX_RESULTS = 5;
const SNIPPET_CHARS = 300;

type SearchConfig = NonNullable<AppConfig['ai']['search']>;

/** True when an internet search provider is configured (else the tool is absent and the toggle says so). */
export const internetSearchAvailable = (config: AppConfig) => config.ai.search !== undefined;

interface RawResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
}

function clean(results: RawResult[]): WebSearchOutput['results'] {
  return results
    .filter((r) => typeof r.url === 'string' && /^https?:\/\//.test(r.url as string))
    .slice(0, MAX_RESULTS)
    .map((r) => ({
      title: typeof r.title === 'string' && r.title.trim() ? r.title.trim().slice(0, 200) : (r.url as string),
      url: r.url as string,
      snippet:
        typeof r.content === 'string' ? r.content.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS) : '',
    }));
}

/**
 * Queries the configured provider: SearXNG (`GET {SEARCH_URL}/search?format=json`) or a Tavily-style
 * API (`POST {SEARCH_URL|https://api.tavily.com}/search`). The operator's own search host is trusted
 * (allow-listed for this call); everything goes through safeFetch's limits.
 */
export async function webSearch(
  cfg: SearchConfig,
  allowlist: readonly string[],
  query: string,
  signal?: AbortSignal,
  /** Told of every request sent to the provider (the activity ledger's external calls). */
  onCall?: ExternalCallListener,
): Promise<WebSearchOutput> {
  const base = (cfg.url ?? (cfg.provider === 'tavily' ? 'https://api.tavily.com' : '')).replace(/\/+$/, '');
  if (!base) return { query, results: [], error: 'SEARCH_URL is not configured.' };
  const allow = [...allowlist, new URL(base).hostname];
  const method = cfg.provider === 'searxng' ? 'GET' : 'POST';
  const url =
    cfg.provider === 'searxng'
      ? `${base}/search?${new URLSearchParams({ q: query, format: 'json' })}`
      : `${base}/search`;
  const told = (status: number | null, error?: string) =>
    onCall?.({ tool: 'web_search', method, url, status, ...(error ? { error } : {}) });
  try {
    if (cfg.provider === 'searxng') {
      const res = await safeFetch(url, {
        headers: {
          accept: 'application/json',
          ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}),
        },
        allowlist: allow,
        // The provider key never follows a redirect to another origin.
        configuredHeaders: cfg.apiKey !== undefined,
        signal,
      });
      await told(res.status);
      if (res.status !== 200) return { query, results: [], error: `search provider answered ${res.status}` };
      return { query, results: clean(res.json<{ results?: RawResult[] }>().results ?? []) };
    }
    const res = await safeFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}),
      },
      body: JSON.stringify({ query, max_results: MAX_RESULTS }),
      allowlist: allow,
      signal,
    });
    await told(res.status);
    if (res.status !== 200) return { query, results: [], error: `search provider answered ${res.status}` };
    return { query, results: clean(res.json<{ results?: RawResult[] }>().results ?? []) };
  } catch (err) {
    const error = err instanceof Error ? err.message : 'search failed';
    await told(null, error);
    return { query, results: [], error };
  }
}

export const webSearchTool = (config: AppConfig, onCall?: ExternalCallListener) =>
  tool({
    description: 'Search the internet. Returns result titles, URLs and snippets; cite the URLs you use.',
    inputSchema: z.object({ query: z.string().min(1).max(300) }),
    execute: async ({ query }, { abortSignal }) =>
      webSearch(config.ai.search as SearchConfig, config.ai.httpAllowlist, query, abortSignal, onCall),
  });
