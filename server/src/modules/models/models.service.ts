import { ALLOWED_MODELS, type TAiCapabilities, type TModelInfo } from '@cc/contract';
import { isOffline, listModels as registryList } from '../../ai/models.ts';
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

export function capabilities(ctx: AppContext): TAiCapabilities {
  return {
    internet_search: internetSearchAvailable(ctx.config),
    offline: isOffline(ctx.config),
    default_model: ctx.config.ai.defaultModel,
  };
}
