import type { AppConfig } from '../../config.ts';
import { clearCompatModelCache } from '../../ai/compat-models.ts';
import {
  attachProviderSettings,
  type ProviderSettings,
  settingsFromEnvironment,
} from '../../ai/provider-settings.ts';
import { withTx } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { openSecret, sealSecret } from '../../platform/secrets/secret-box.ts';
import * as repo from './model-settings.repository.ts';

/** The rows' keys; the three keys are sealed with SECRETS_KEY. */
export const SETTING = {
  compatBaseUrl: 'compat_base_url',
  compatApiKey: 'compat_api_key',
  openaiApiKey: 'openai_api_key',
  googleApiKey: 'google_api_key',
  defaultModel: 'default_model',
} as const;
const SEALED: ReadonlySet<string> = new Set([
  SETTING.compatApiKey,
  SETTING.openaiApiKey,
  SETTING.googleApiKey,
]);

/** A stored key once opened: null when SECRETS_KEY no longer opens it. */
export type OpenedKey = { value: string | null };

/** What an administrator set, keys opened. */
export interface StoredSettings {
  compatBaseUrl?: string;
  compatApiKey?: OpenedKey;
  openaiApiKey?: OpenedKey;
  googleApiKey?: OpenedKey;
  defaultModel?: string;
}

/** Which providers the environment sets: those rows are read-only on the screen and win. */
export function environmentSets(config: AppConfig) {
  const ai = config.ai;
  return {
    compatible: Boolean(ai.openaiBaseUrl),
    openai: Boolean(ai.openaiApiKey) && !ai.openaiBaseUrl,
    google: Boolean(ai.googleApiKey),
    defaultModel: ai.defaultModelFromEnv,
  };
}

/** The environment's providers, and the screen's for every provider the environment leaves unset. */
export function mergeSettings(config: AppConfig, stored: StoredSettings): ProviderSettings {
  const env = settingsFromEnvironment(config);
  const sets = environmentSets(config);
  const key = (k?: OpenedKey) => k?.value ?? undefined;
  return {
    compat: sets.compatible
      ? env.compat
      : stored.compatBaseUrl
        ? { baseUrl: stored.compatBaseUrl, apiKey: key(stored.compatApiKey), guarded: true }
        : undefined,
    openaiApiKey: sets.openai ? env.openaiApiKey : key(stored.openaiApiKey),
    googleApiKey: sets.google ? env.googleApiKey : key(stored.googleApiKey),
    defaultModel: sets.defaultModel ? env.defaultModel : (stored.defaultModel ?? env.defaultModel),
  };
}

async function readStored(ctx: AppContext): Promise<StoredSettings> {
  const rows = await repo.readSettings(ctx.db);
  const get = (k: string) => rows.get(k);
  const opened = (k: string): OpenedKey | undefined => {
    const v = get(k);
    return v === undefined ? undefined : { value: openSecret(ctx.config.secretsKey, v) };
  };
  return {
    compatBaseUrl: get(SETTING.compatBaseUrl),
    compatApiKey: opened(SETTING.compatApiKey),
    openaiApiKey: opened(SETTING.openaiApiKey),
    googleApiKey: opened(SETTING.googleApiKey),
    defaultModel: get(SETTING.defaultModel),
  };
}

/**
 * Every model call reads the settings, so each instance keeps them in memory: re-read when older than
 * this, and at once when any instance changes them (a note on the event bus, which on PostgreSQL
 * reaches every instance).
 */
const TTL_MS = 5_000;
const CHANNEL = 'model-settings';

interface State {
  stored: StoredSettings;
  effective: ProviderSettings;
  at: number;
  loading?: Promise<void>;
}
const states = new WeakMap<AppConfig, State>();

function reload(ctx: AppContext, state: State): Promise<void> {
  if (state.loading) return state.loading;
  const loading = readStored(ctx)
    .then((stored) => {
      const next = mergeSettings(ctx.config, stored);
      // The same settings keep the same snapshot, so the model clients built for it are kept too.
      if (JSON.stringify(next) !== JSON.stringify(state.effective)) {
        state.effective = next;
        clearCompatModelCache();
      }
      state.stored = stored;
      state.at = Date.now();
    })
    // A failed read keeps the last settings; the next call tries again.
    .catch(() => {})
    .finally(() => {
      state.loading = undefined;
    });
  state.loading = loading;
  return loading;
}

/** Reads the settings once and hands the model registry its source; returns the unsubscribe. */
export async function startModelSettings(ctx: AppContext): Promise<() => void> {
  const stored = await readStored(ctx);
  const state: State = { stored, effective: mergeSettings(ctx.config, stored), at: Date.now() };
  states.set(ctx.config, state);
  const stale = () => Date.now() - state.at > TTL_MS;
  attachProviderSettings(ctx.config, {
    current() {
      if (stale()) void reload(ctx, state);
      return state.effective;
    },
    async fresh() {
      if (stale()) await reload(ctx, state);
      return state.effective;
    },
  });
  return ctx.bus.subscribe(CHANNEL, () => {
    state.at = 0;
    void reload(ctx, state);
  });
}

/** The stored settings as of now (read afresh: the admin screen shows what is in the database). */
export async function currentStored(ctx: AppContext): Promise<StoredSettings> {
  const state = states.get(ctx.config);
  if (!state) return readStored(ctx);
  state.at = 0;
  await reload(ctx, state);
  return state.stored;
}

/** Writes the changed rows (null: removed; keys sealed), applies them here and tells the other instances. */
export async function writeSettings(ctx: AppContext, changes: Map<string, string | null>): Promise<void> {
  const now = new Date().toISOString();
  await withTx(ctx.db, async (trx) => {
    for (const [k, v] of changes) {
      const value = v !== null && SEALED.has(k) ? sealSecret(ctx.config.secretsKey, v) : v;
      await repo.putSetting(trx, k, value, now);
    }
  });
  const state = states.get(ctx.config);
  if (state) {
    state.at = 0;
    await reload(ctx, state);
  }
  await ctx.bus.publish(CHANNEL, {}).catch(() => {});
}
