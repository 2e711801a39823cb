import type { TAiCapabilities, TModelInfo } from '@cc/contract';
import { isOffline, listModels as registryList } from '../../ai/models.ts';
import { internetSearchAvailable } from '../../ai/tools/index.ts';
import type { AppContext } from '../../platform/context.ts';

export const listModels = (ctx: AppContext): Promise<TModelInfo[]> => registryList(ctx);

export function capabilities(ctx: AppContext): TAiCapabilities {
  return {
    internet_search: internetSearchAvailable(ctx.config),
    offline: isOffline(ctx.config),
    default_model: ctx.config.ai.defaultModel,
  };
}
