import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ALLOWED_MODELS, type TAiEngine, type TModelInfo } from '@cc/contract';
import { wrapLanguageModel } from 'ai';
import type { AppConfig } from '../config.ts';
import { AppError } from '../platform/errors.ts';
import { cachedCompatModels, compatModels } from './compat-models.ts';
import type { AppContext } from '../platform/context.ts';
import { ModelMeter } from './metering/model-meter.ts';
import type { MeterScope } from './metering/meter-scope.ts';
import { guardedProviderFetch } from './net/guarded-provider-fetch.ts';
import { providerFetch } from './net/provider-fetch.ts';
import { OFFLINE_MODEL_ID, OfflineLanguageModel } from './offline/engine.ts';
import { freshProviderSettings, type ProviderSettings, providerSettings } from './provider-settings.ts';
import { withTimeouts } from './timeouts.ts';

export type AiEngine = TAiEngine;

export interface ResolvedModel {
  /** The model to call: metered (ai/metering middleware) when resolved with an app context. */
  model: LanguageModelV3;
  /** The meter of `model` when it is metered: lets a caller reserve the first call's cost early. */
  meter?: ModelMeter;
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

/** Keyed by the settings snapshot: a change of provider makes new clients, never a stale one. */
const providerCache = new WeakMap<ProviderSettings, Providers>();

function providers(config: AppConfig, s: ProviderSettings): Providers {
  let p = providerCache.get(s);
  if (p) return p;
  p = {
    openai: s.openaiApiKey ? createOpenAI({ apiKey: s.openaiApiKey, fetch: providerFetch }) : undefined,
    google: s.googleApiKey
      ? createGoogleGenerativeAI({ apiKey: s.googleApiKey, fetch: providerFetch })
      : undefined,
    compat: s.compat
      ? createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: s.compat.baseUrl.replace(/\/+$/, ''),
          apiKey: s.compat.apiKey,
          includeUsage: true,
          fetch: s.compat.guarded ? guardedProviderFetch(config.ai.httpAllowlist) : providerFetch,
        })
      : undefined,
  };
  providerCache.set(s, p);
  return p;
}

/** True when no provider is configured: every model id is served by the offline engine. */
export function isOffline(config: AppConfig): boolean {
  const s = providerSettings(config);
  return !s.openaiApiKey && !s.compat && !s.googleApiKey;
}

/** The model list of the settings' OpenAI-compatible endpoint (null: none, or it did not answer). */
function endpointModels(config: AppConfig, s: ProviderSettings): Promise<string[] | null> {
  if (!s.compat) return Promise.resolve(null);
  const { baseUrl, apiKey, guarded } = s.compat;
  return compatModels(baseUrl, apiKey, guarded ? config.ai.httpAllowlist : undefined);
}

function offline(config: AppConfig, requested: string): ResolvedModel {
  return {
    model: new OfflineLanguageModel(requested, { tokenDelayMs: config.ai.offlineTokenDelayMs }),
    id: OFFLINE_MODEL_ID,
    engine: 'offline',
  };
}

const modelCache = new WeakMap<ProviderSettings, Map<string, ResolvedModel>>();

/**
 * A provider model with the configured timeouts, made once per settings snapshot, engine and id: a chat
 * model builds its response schemas when it is created, which profiling showed on every chat turn.
 * Models hold no per-call state (the timeouts are armed per call), so one serves concurrent calls.
 */
function limited(
  config: AppConfig,
  s: ProviderSettings,
  make: () => LanguageModelV3,
  id: string,
  engine: AiEngine,
): ResolvedModel {
  let byKey = modelCache.get(s);
  if (!byKey) {
    byKey = new Map();
    modelCache.set(s, byKey);
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
  const requested = modelId?.trim() || providerSettings(ctx.config).defaultModel;
  const modelMeter = new ModelMeter(ctx, { engine: resolved.engine, model: resolved.id, requested }, meter);
  return {
    ...resolved,
    model: wrapLanguageModel({ model: resolved.model, middleware: modelMeter.middleware }),
    meter: modelMeter,
  };
}

const isAppContext = (ctx: HasConfig): ctx is AppContext =>
  (ctx as Partial<AppContext>).db !== undefined && (ctx as Partial<AppContext>).bus !== undefined;

function resolveUnmetered(ctx: HasConfig, modelId?: string | null): ResolvedModel {
  const config = ctx.config;
  const settings = providerSettings(config);
  const id = modelId?.trim() || settings.defaultModel;
  if (id === OFFLINE_MODEL_ID) return offline(config, id);
  const { compat, openai, google } = providers(config, settings);
  const listed = settings.compat
    ? cachedCompatModels(settings.compat.baseUrl, settings.compat.apiKey)
    : undefined;
  const endpoint = (c: NonNullable<typeof compat>, target: string) =>
    limited(config, settings, () => c.chatModel(target), target, 'openai-compatible');
  if (isSpecId(id)) {
    const spec = SPEC_MODELS[id];
    // OpenAI's own key serves its models; without one, the OpenAI-compatible endpoint does.
    if (spec.family === 'openai' && openai) {
      return limited(config, settings, () => openai(spec.providerId ?? id), id, 'openai');
    }
    if (spec.family === 'openai' && compat) {
      // A real OpenAI endpoint lists gpt-5-chat as gpt-5-chat-latest; a local server may list neither,
      // and then the default model answers when the endpoint lists it, else its first model.
      const alias = spec.providerId && listed?.includes(spec.providerId) ? spec.providerId : undefined;
      const fallback = listed?.includes(settings.defaultModel) ? settings.defaultModel : listed?.[0];
      const target = !listed || listed.length === 0 || listed.includes(id) ? id : (alias ?? fallback ?? id);
      return endpoint(compat, target);
    }
    if (spec.family === 'google' && google) {
      return limited(config, settings, () => google(id), id, 'google');
    }
    return offline(config, id);
  }
  // Any endpoint model; before its list is known the endpoint itself judges the id.
  if (compat && (listed == null || listed.includes(id))) return endpoint(compat, id);
  throw unknownModel(id);
}

/** Like {@link resolveModel}, after refreshing the settings and the endpoint's model list (cached a minute). */
export async function resolveModelFresh(
  ctx: HasConfig,
  modelId: string | null | undefined,
  meter: MeterScope,
): Promise<ResolvedModel> {
  const settings = await freshProviderSettings(ctx.config);
  if (settings.compat) {
    const ids = await endpointModels(ctx.config, settings);
    const id = modelId?.trim() || settings.defaultModel;
    if (ids && !isSpecId(id) && id !== OFFLINE_MODEL_ID && !ids.includes(id)) throw unknownModel(id);
  }
  return resolveModel(ctx, modelId, meter);
}

/** What GET /api/models lists: the spec's four, then the endpoint's other models. */
export async function listModels(ctx: HasConfig): Promise<TModelInfo[]> {
  const settings = await freshProviderSettings(ctx.config);
  const endpoint = await endpointModels(ctx.config, settings);
  const defaultId = settings.defaultModel;
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

/** The default model id in effect (the screen's, else AI_DEFAULT_MODEL's). */
export const defaultModelId = (config: AppConfig): string => providerSettings(config).defaultModel;
