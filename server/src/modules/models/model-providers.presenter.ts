import type { TModelProviders, TProviderKeyState } from '@cc/contract';
import type { AppConfig } from '../../config.ts';
import { environmentSets, type OpenedKey, type StoredSettings } from './model-settings.service.ts';

/** A key's last four characters, shown only for keys long enough that four say little about them. */
const last4 = (key: string) => (key.length >= 12 ? key.slice(-4) : null);

const keyState = (key: string | undefined, stored?: OpenedKey): TProviderKeyState =>
  key
    ? { set: true, last4: last4(key), unreadable: false }
    : stored
      ? {
          set: stored.value !== null,
          last4: stored.value ? last4(stored.value) : null,
          unreadable: stored.value === null,
        }
      : { set: false, last4: null, unreadable: false };

const NONE = { set: false, last4: null, unreadable: false };

/** Super Admin → Models: each provider with where it comes from; keys only as set / last four. */
export function presentModelProviders(
  config: AppConfig,
  stored: StoredSettings,
  offline: boolean,
): TModelProviders {
  const ai = config.ai;
  const env = environmentSets(config);
  return {
    compatible: env.compatible
      ? { source: 'environment', base_url: ai.openaiBaseUrl ?? null, key: keyState(ai.openaiApiKey) }
      : stored.compatBaseUrl
        ? {
            source: 'settings',
            base_url: stored.compatBaseUrl,
            key: keyState(undefined, stored.compatApiKey),
          }
        : { source: null, base_url: null, key: NONE },
    openai: env.openai
      ? { source: 'environment', key: keyState(ai.openaiApiKey) }
      : { source: stored.openaiApiKey ? 'settings' : null, key: keyState(undefined, stored.openaiApiKey) },
    google: env.google
      ? { source: 'environment', key: keyState(ai.googleApiKey) }
      : { source: stored.googleApiKey ? 'settings' : null, key: keyState(undefined, stored.googleApiKey) },
    default_model: env.defaultModel
      ? { model: ai.defaultModel, source: 'environment' }
      : stored.defaultModel
        ? { model: stored.defaultModel, source: 'settings' }
        : { model: ai.defaultModel, source: null },
    offline,
  };
}
