import { ALLOWED_MODELS, type TAiCapabilities, type TModelInfo } from '@cc/contract';
import { defaultModelId, isOffline, listModels as registryList } from '../../ai/models.ts';
import { freshProviderSettings } from '../../ai/provider-settings.ts';
import { internetSearchAvailable } from '../../ai/tools/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { offeredEndpointModels } from '../usage/usage-prices.service.ts';

/** GET /api/models: the built-in models and the endpoint models an administrator offers (issue 46 row 13). */
export async function listModels(ctx: AppContext): Promise<TModelInfo[]> {
  const [all, offered] = await Promise.all([registryList(ctx), offeredEndpointModels(ctx)]);
  return all.filter(
    (m) =>
      m.engine !== 'openai-compatible' ||
      (ALLOWED_MODELS as readonly string[]).includes(m.id) ||
      offered.has(m.id),
  );
}

export async function capabilities(ctx: AppContext): Promise<TAiCapabilities> {
  await freshProviderSettings(ctx.config);
  return {
    internet_search: internetSearchAvailable(ctx.config),
    offline: isOffline(ctx.config),
    default_model: defaultModelId(ctx.config),
  };
}
