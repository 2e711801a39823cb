import {
  ALLOWED_MODELS,
  type TModelProviders,
  type TModelProvidersUpdate,
  type TModelProviderTest,
  type TModelProviderTestResult,
} from '@cc/contract';
import { modelIdsOf, modelsUrl } from '../../ai/compat-models.ts';
import { isOffline } from '../../ai/models.ts';
import { Allowlist } from '../../ai/net/ip-policy.ts';
import { checkUrl, FetchLimitError, safeFetch, UnsafeUrlError } from '../../ai/net/safe-fetch.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, conflict } from '../../platform/errors.ts';
import { offeredEndpointModels } from '../usage/usage-prices.service.ts';
import { presentModelProviders } from './model-providers.presenter.ts';
import { currentStored, environmentSets, SETTING, writeSettings } from './model-settings.service.ts';

const TEST_TIMEOUT_MS = 5_000;
const unprocessable = (detail: string) => new AppError(422, detail);

export async function describeModelProviders(ctx: AppContext): Promise<TModelProviders> {
  const stored = await currentStored(ctx);
  return presentModelProviders(ctx.config, stored, isOffline(ctx.config));
}

/** An http(s) URL whose host the outbound address policy allows (AI_HTTP_ALLOWLIST for private ones). */
async function checkedBaseUrl(ctx: AppContext, raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unprocessable(
      `${raw} is not a URL: enter the endpoint's base URL, e.g. https://llm.example.com/v1.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw unprocessable('The base URL must start with http:// or https://.');
  if (url.username || url.password) throw unprocessable('Put the key in the API key field, not in the URL.');
  try {
    await checkUrl(url, new Allowlist(ctx.config.ai.httpAllowlist));
  } catch (err) {
    if (err instanceof UnsafeUrlError)
      throw unprocessable(
        `${err.message} An operator can allow it with AI_HTTP_ALLOWLIST (e.g. for a model server on this network).`,
      );
    throw err;
  }
  return url;
}

const envWins = (variable: string) =>
  conflict(`This setting comes from ${variable} in the server's environment, which wins: change it there.`);

/** PUT /api/admin/model-providers: only what is given changes; the environment's rows cannot. */
export async function saveModelProviders(
  ctx: AppContext,
  body: TModelProvidersUpdate,
): Promise<TModelProviders> {
  const env = environmentSets(ctx.config);
  const stored = await currentStored(ctx);
  const changes = new Map<string, string | null>();
  if (body.compatible !== undefined) {
    if (env.compatible) throw envWins('OPENAI_BASE_URL');
    if (body.compatible === null) {
      changes.set(SETTING.compatBaseUrl, null).set(SETTING.compatApiKey, null);
    } else {
      const url = (await checkedBaseUrl(ctx, body.compatible.base_url)).toString().replace(/\/+$/, '');
      changes.set(SETTING.compatBaseUrl, url);
      // A stored key goes only to the endpoint it was entered for: a new URL without a key has none.
      const sameEndpoint = stored.compatBaseUrl === url;
      if (body.compatible.api_key !== undefined) changes.set(SETTING.compatApiKey, body.compatible.api_key);
      else if (!sameEndpoint) changes.set(SETTING.compatApiKey, null);
    }
  }
  if (body.openai_api_key !== undefined) {
    if (env.openai) throw envWins('OPENAI_API_KEY');
    changes.set(SETTING.openaiApiKey, body.openai_api_key);
  }
  if (body.google_api_key !== undefined) {
    if (env.google) throw envWins('GOOGLE_GENERATIVE_AI_API_KEY');
    changes.set(SETTING.googleApiKey, body.google_api_key);
  }
  if (body.default_model !== undefined) {
    if (env.defaultModel) throw envWins('AI_DEFAULT_MODEL');
    const m = body.default_model;
    if (
      m !== null &&
      !(ALLOWED_MODELS as readonly string[]).includes(m) &&
      !(await offeredEndpointModels(ctx)).has(m)
    )
      throw new AppError(422, [
        {
          loc: ['body', 'default_model'],
          msg: `${m} is not offered: offer it under Models and prices first, or choose a built-in model.`,
          type: 'value_error',
        },
      ]);
    changes.set(SETTING.defaultModel, m);
  }
  await writeSettings(ctx, changes);
  return describeModelProviders(ctx);
}

/**
 * POST /api/admin/model-providers/test: the endpoint's `/models` through the outbound address policy.
 * The endpoint's own answer is never shown (it is untrusted and may echo what it was sent): only its
 * status, or that it is not a model list.
 */
export async function testModelProvider(
  ctx: AppContext,
  body: TModelProviderTest,
): Promise<TModelProviderTestResult> {
  const url = (await checkedBaseUrl(ctx, body.base_url)).toString().replace(/\/+$/, '');
  const stored = await currentStored(ctx);
  const storedKey = stored.compatBaseUrl === url ? (stored.compatApiKey?.value ?? undefined) : undefined;
  const key = body.api_key ?? storedKey;
  let res: Awaited<ReturnType<typeof safeFetch>>;
  try {
    res = await safeFetch(modelsUrl(url), {
      headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      allowlist: ctx.config.ai.httpAllowlist,
      timeoutMs: TEST_TIMEOUT_MS,
      maxRedirects: 2,
    });
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw unprocessable(err.message);
    if (err instanceof FetchLimitError)
      throw unprocessable(`The endpoint did not give a usable answer: ${err.message}`);
    const code = (err as { code?: unknown }).code;
    throw unprocessable(
      `Could not reach ${new URL(url).host}${typeof code === 'string' ? ` (${code})` : ''}: check the base URL and that the server is running.`,
    );
  }
  if (res.status === 401 || res.status === 403)
    throw unprocessable(`The endpoint refused the key (HTTP ${res.status}): check the API key.`);
  if (res.status < 200 || res.status >= 300)
    throw unprocessable(
      `The endpoint answered HTTP ${res.status} to GET ${modelsUrl(url)}: check the base URL (it usually ends in /v1).`,
    );
  let parsed: unknown;
  try {
    parsed = res.json();
  } catch {
    parsed = null;
  }
  if (!Array.isArray((parsed as { data?: unknown } | null)?.data))
    throw unprocessable("The endpoint's answer is not an OpenAI-compatible model list: check the base URL.");
  return { models: [...new Set(modelIdsOf(parsed))].slice(0, 500) };
}
