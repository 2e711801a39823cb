import type { AppConfig } from '../config.ts';

/**
 * The model providers in effect: the environment's, merged with what an administrator set in
 * Super Admin → Models (modules/models keeps those rows and hands this module a source; `ai/` reads
 * no table). Each snapshot is immutable: a change makes a new one, so caches keyed by it stay right.
 */
export interface ProviderSettings {
  /** An OpenAI-compatible endpoint (Ollama, vLLM, a gateway). */
  compat?: {
    baseUrl: string;
    apiKey?: string;
    /** Set from the screen: every request is checked against the outbound address policy. */
    guarded: boolean;
  };
  openaiApiKey?: string;
  googleApiKey?: string;
  defaultModel: string;
}

export interface ProviderSettingsSource {
  /** The snapshot to use now (synchronous: model resolution is). */
  current(): ProviderSettings;
  /** The snapshot after re-reading the settings when the cached one is old. */
  fresh(): Promise<ProviderSettings>;
}

/** The environment alone: OPENAI_API_KEY belongs to OPENAI_BASE_URL's endpoint when that is set. */
export function settingsFromEnvironment(config: AppConfig): ProviderSettings {
  const ai = config.ai;
  return {
    compat: ai.openaiBaseUrl
      ? { baseUrl: ai.openaiBaseUrl, apiKey: ai.openaiApiKey, guarded: false }
      : undefined,
    openaiApiKey: ai.openaiBaseUrl ? undefined : ai.openaiApiKey,
    googleApiKey: ai.googleApiKey,
    defaultModel: ai.defaultModel,
  };
}

const sources = new WeakMap<AppConfig, ProviderSettingsSource>();
const envOnly = new WeakMap<AppConfig, ProviderSettings>();

/** The app's settings source, attached once per app configuration at start-up. */
export function attachProviderSettings(config: AppConfig, source: ProviderSettingsSource): void {
  sources.set(config, source);
}

/** The settings in effect for this configuration (the environment's when nothing is attached). */
export function providerSettings(config: AppConfig): ProviderSettings {
  const source = sources.get(config);
  if (source) return source.current();
  let s = envOnly.get(config);
  if (!s) {
    s = settingsFromEnvironment(config);
    envOnly.set(config, s);
  }
  return s;
}

/** Like {@link providerSettings}, re-read when the cached snapshot is old. */
export async function freshProviderSettings(config: AppConfig): Promise<ProviderSettings> {
  return (await sources.get(config)?.fresh()) ?? providerSettings(config);
}
