import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ALLOWED_MODELS, type TAiEngine, type TModelInfo } from '@cc/contract';
import type { AppConfig } from '../config.ts';
import { AppError } from '../platform/errors.ts';
import { cachedCompatModels, compatModels } from './compat-models.ts';
import type { AppContext } from '../platform/context.ts';
import { MeteredModel } from './metering/metered-model.ts';
import type { MeterScope } from './metering/meter-scope.ts';
import { providerFetch } from './net/provider-fetch.ts';
import { OFFLINE_MODEL_ID, OfflineLanguageModel } from './offline/engine.ts';
import { withLeanStream } from './stream/compat-chat-stream.ts';
import { withTimeouts } from './timeouts.ts';

export type AiEngine = TAiEngine;

export interface ResolvedModel {
  /** The model to call: metered (ai/metering) when resolved with an app context. */
  model: LanguageModelV3;
  /** The same model as `model` when it is metered: lets a caller reserve the first call's cost early. */
  metered?: MeteredModel;
  /** The model that actually answers (the endpoint's id; 'offline' for the offline engine). */
  id: string;
  engine: AiEngine;
}

/** Anything carrying the configuration (AppContext does). */
export interface HasConfig {
  config: AppConfig;
}

interface SpecModel {
  name: string;
  family: 'openai' | 'google';
  /** The provider's own id when it differs from the spec's. */
  providerId?: string;
}

/** The spec's four models and the provider family behind each. */
export const SPEC_MODELS: Record<(typeof ALLOWED_MODELS)[number], SpecModel> = {
  'gpt-5-chat': { name: 'GPT-5 Chat', family: 'openai', providerId: 'gpt-5-chat-latest' },
  'gpt-5': { name: 'GPT-5', family: 'openai' },
  'gpt-5-mini': { name: 'GPT-5 mini', family: 'openai' },
  'gemini-2.5-pro': { name: 'Gemini 2.5 Pro', family: 'google' },
};

const isSpecId = (id: string): id is keyof typeof SPEC_MODELS => Object.hasOwn(SPEC_MODELS, id);

interface Providers {
  openai?: ReturnType<typeof createOpenAI>;
  google?: ReturnType<typeof createGoogleGenerativeAI>;
  compat?: ReturnType<typeof createOpenAICompatible>;
}

const providerCache = new WeakMap<AppConfig, Providers>();

function providers(config: AppConfig): Providers {
  let p = providerCache.get(config);
  if (p) return p;
  const ai = config.ai;
  p = {
    openai:
      ai.openaiApiKey && !ai.openaiBaseUrl
        ? createOpenAI({ apiKey: ai.openaiApiKey, fetch: providerFetch })
        : undefined,
    google: ai.googleApiKey
      ? createGoogleGenerativeAI({ apiKey: ai.googleApiKey, fetch: providerFetch })
      : undefined,
    compat: ai.openaiBaseUrl
      ? createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: ai.openaiBaseUrl.replace(/\/+$/, ''),
          apiKey: ai.openaiApiKey,
          includeUsage: true,
          fetch: providerFetch,
        })
      : undefined,
  };
  providerCache.set(config, p);
  return p;
}

/** True when no provider is configured: every model id is served by the offline engine. */
export function isOffline(config: AppConfig): boolean {
  const ai = config.ai;
  return !ai.openaiApiKey && !ai.openaiBaseUrl && !ai.googleApiKey;
}

function offline(config: AppConfig, requested: string): ResolvedModel {
  return {
    model: new OfflineLanguageModel(requested, { tokenDelayMs: config.ai.offlineTokenDelayMs }),
    id: OFFLINE_MODEL_ID,
    engine: 'offline',
  };
}

const modelCache = new WeakMap<AppConfig, Map<string, ResolvedModel>>();

/**
 * A provider model with the configured timeouts, made once per configuration, engine and id: a chat
 * model builds its response schemas when it is created, which profiling showed on every chat turn.
 * Models hold no per-call state (the timeouts are armed per call), so one serves concurrent calls.
 */
function limited(
  config: AppConfig,
  make: () => LanguageModelV3,
  id: string,
  engine: AiEngine,
): ResolvedModel {
  let byKey = modelCache.get(config);
  if (!byKey) {
    byKey = new Map();
    modelCache.set(config, byKey);
  }
  const key = `${engine}:${id}`;
  let resolved = byKey.get(key);
  if (!resolved) {
    const t = { idleMs: config.ai.streamIdleTimeoutMs, totalMs: config.ai.requestTimeoutMs };
    resolved = { model: withTimeouts(make(), t), id, engine };
    byKey.set(key, resolved);
  }
  return resolved;
}

const unknownModel = (id: string) => new AppError(422, `Unknown model: ${id}`);

/**
 * The model for an id (default `config.ai.defaultModel`, i.e. gpt-5-chat):
 * - gpt-5-chat / gpt-5 / gpt-5-mini: the OPENAI_BASE_URL endpoint when set (a gateway or local server;
 *   when its listed models lack the id, its first model answers), else OpenAI with OPENAI_API_KEY;
 * - gemini-2.5-pro: Google with GOOGLE_GENERATIVE_AI_API_KEY;
 * - any other id: a model the OPENAI_BASE_URL endpoint lists;
 * - a spec id whose provider is not configured, and 'offline': the offline engine.
 * Unknown ids throw AppError 422. Synchronous; use {@link resolveModelFresh} to check the endpoint's
 * list first. Provider models carry the configured request and stream idle timeouts.
 */
export function resolveModel(
  ctx: HasConfig,
  modelId: string | null | undefined,
  /** Whom the calls are metered to (required, so no model call goes unattributed). */
  meter: MeterScope,
): ResolvedModel {
  const resolved = resolveUnmetered(ctx, modelId);
  // Every model call of the app passes here: with an app context it is metered (usage, cost, budgets).
  if (!isAppContext(ctx)) return resolved;
  const requested = modelId?.trim() || ctx.config.ai.defaultModel;
  const metered = new MeteredModel(
    ctx,
    resolved.model,
    { engine: resolved.engine, model: resolved.id, requested },
    meter,
  );
  return { ...resolved, model: metered, metered };
}

const isAppContext = (ctx: HasConfig): ctx is AppContext =>
  (ctx as Partial<AppContext>).db !== undefined && (ctx as Partial<AppContext>).bus !== undefined;

function resolveUnmetered(ctx: HasConfig, modelId?: string | null): ResolvedModel {
  const config = ctx.config;
  const id = modelId?.trim() || config.ai.defaultModel;
  if (id === OFFLINE_MODEL_ID) return offline(config, id);
  const { compat, openai, google } = providers(config);
  const listed = config.ai.openaiBaseUrl ? cachedCompatModels(config.ai.openaiBaseUrl) : undefined;
  if (isSpecId(id)) {
    const spec = SPEC_MODELS[id];
    if (spec.family === 'openai' && compat) {
      // A real OpenAI endpoint lists gpt-5-chat as gpt-5-chat-latest; a local server may list neither.
      const alias = spec.providerId && listed?.includes(spec.providerId) ? spec.providerId : undefined;
      const target = !listed || listed.length === 0 || listed.includes(id) ? id : (alias ?? listed[0]);
      return limited(config, () => withLeanStream(compat.chatModel(target)), target, 'openai-compatible');
    }
    if (spec.family === 'openai' && openai) {
      return limited(config, () => openai(spec.providerId ?? id), id, 'openai');
    }
    if (spec.family === 'google' && google) return limited(config, () => google(id), id, 'google');
    return offline(config, id);
  }
  // Any endpoint model; before its list is known the endpoint itself judges the id.
  if (compat && (listed == null || listed.includes(id))) {
    return limited(config, () => withLeanStream(compat.chatModel(id)), id, 'openai-compatible');
  }
  throw unknownModel(id);
}

/** Like {@link resolveModel}, after refreshing the endpoint's model list (cached a minute). */
export async function resolveModelFresh(
  ctx: HasConfig,
  modelId: string | null | undefined,
  meter: MeterScope,
): Promise<ResolvedModel> {
  const ai = ctx.config.ai;
  if (ai.openaiBaseUrl) {
    const ids = await compatModels(ai.openaiBaseUrl, ai.openaiApiKey);
    const id = modelId?.trim() || ai.defaultModel;
    if (ids && !isSpecId(id) && id !== OFFLINE_MODEL_ID && !ids.includes(id)) throw unknownModel(id);
  }
  return resolveModel(ctx, modelId, meter);
}

/** What GET /api/models lists: the spec's four, then the endpoint's other models. */
export async function listModels(ctx: HasConfig): Promise<TModelInfo[]> {
  const ai = ctx.config.ai;
  const endpoint = ai.openaiBaseUrl ? await compatModels(ai.openaiBaseUrl, ai.openaiApiKey) : null;
  const defaultId = ai.defaultModel;
  const out: TModelInfo[] = [];
  for (const id of ALLOWED_MODELS) {
    const { engine } = resolveUnmetered(ctx, id);
    const available = engine !== 'openai-compatible' || (endpoint !== null && endpoint.length > 0);
    out.push({ id, name: SPEC_MODELS[id].name, engine, available, is_default: id === defaultId });
  }
  for (const id of endpoint ?? []) {
    if (isSpecId(id)) continue;
    out.push({ id, name: id, engine: 'openai-compatible', available: true, is_default: id === defaultId });
  }
  return out;
}
