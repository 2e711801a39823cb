import {
  ALLOWED_MODELS,
  DEFAULT_MODEL_PRICES,
  type TDefaultModelPrice,
  type TModelPrices,
  type TModelPriceTable,
} from '@cc/contract';
import { nowIso, withTx } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { MICROS, toMicros } from './usage-money.ts';
import * as repo from './usage.repository.ts';

export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
}

const FREE: Price = { inputPerMillion: 0, outputPerMillion: 0 };
/** The usage_settings key of the price of unpriced endpoint models. */
const DEFAULT_PRICE_KEY = 'default_model_price';

/** What every model call reads: the admin's prices, the offered endpoint models and the default price. */
interface Catalog {
  prices: Map<string, Price>;
  offered: Set<string>;
  defaultPrice: Price | null;
}

/** Read on every model call: cached a little, and dropped by this instance's own edits. */
const TTL_MS = 30_000;
const cache = new WeakMap<object, { at: number; catalog: Promise<Catalog> }>();

async function loadCatalog(ctx: AppContext): Promise<Catalog> {
  const [rows, offered, stored] = await Promise.all([
    repo.listPrices(ctx.db),
    repo.listOffers(ctx.db),
    repo.findSetting(ctx.db, DEFAULT_PRICE_KEY),
  ]);
  return {
    prices: new Map(
      rows.map((r) => [
        r.model,
        {
          inputPerMillion: Number(r.input_micros_per_million),
          outputPerMillion: Number(r.output_micros_per_million),
        },
      ]),
    ),
    offered: new Set(offered),
    defaultPrice: parseDefaultPrice(stored),
  };
}

function parseDefaultPrice(stored: string | undefined): Price | null {
  if (!stored) return null;
  try {
    const p = JSON.parse(stored) as Partial<Price>;
    if (typeof p.inputPerMillion === 'number' && typeof p.outputPerMillion === 'number')
      return { inputPerMillion: p.inputPerMillion, outputPerMillion: p.outputPerMillion };
  } catch {}
  return null;
}

function catalogOf(ctx: AppContext): Promise<Catalog> {
  const hit = cache.get(ctx.db);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.catalog;
  const catalog = loadCatalog(ctx);
  catalog.catch(() => cache.delete(ctx.db));
  cache.set(ctx.db, { at: Date.now(), catalog });
  return catalog;
}

const isAllowed = (m: string): m is (typeof ALLOWED_MODELS)[number] =>
  (ALLOWED_MODELS as readonly string[]).includes(m);

function defaultPrice(model: string): Price | undefined {
  if (!isAllowed(model)) return undefined;
  const d = DEFAULT_MODEL_PRICES[model];
  return { inputPerMillion: toMicros(d.input), outputPerMillion: toMicros(d.output) };
}

/**
 * The price of a call, and whether anyone priced it: the offline engine is free; an OpenAI-compatible
 * endpoint's models cost the admin's price, else the admin's default price, else nothing and are
 * `unpriced` (it may be a local server: the default table describes the providers' own prices);
 * OpenAI and Google models use the admin's price, else the default table.
 */
export async function callPriceOf(
  ctx: AppContext,
  model: string,
  engine: string,
): Promise<{ price: Price; unpriced: boolean }> {
  if (engine === 'offline') return { price: FREE, unpriced: false };
  const catalog = await catalogOf(ctx);
  const stored = catalog.prices.get(model);
  if (stored) return { price: stored, unpriced: false };
  if (engine === 'openai-compatible')
    return catalog.defaultPrice
      ? { price: catalog.defaultPrice, unpriced: false }
      : { price: FREE, unpriced: true };
  return { price: defaultPrice(model) ?? FREE, unpriced: false };
}

/** The price a call is estimated and charged at (see {@link callPriceOf}). */
export async function priceOf(ctx: AppContext, model: string, engine: string): Promise<Price> {
  return (await callPriceOf(ctx, model, engine)).price;
}

/**
 * Whether members may call the model `requested` (the id asked for): the four built-in models always;
 * another model of the OpenAI-compatible endpoint only once an administrator offers it.
 */
export async function isOffered(ctx: AppContext, requested: string, engine: string): Promise<boolean> {
  if (engine !== 'openai-compatible' || isAllowed(requested)) return true;
  return (await catalogOf(ctx)).offered.has(requested);
}

/** The 422 of a call to an endpoint model no administrator offers. */
export const notOffered = (model: string) =>
  new AppError(
    422,
    `The model ${model} is not offered here. An administrator can offer it in Super Admin → Models.`,
  );

/** The 422 of an unpriced model where a budget applies (issue 46 row 13). */
export const unpricedUnderBudget = (model: string) =>
  new AppError(
    422,
    `The model ${model} has no price, and a monthly AI budget applies to you: an administrator must price it (or set a default price) before it can be used.`,
  );

/** Endpoint models offered to members, for GET /api/models. */
export async function offeredEndpointModels(ctx: AppContext): Promise<Set<string>> {
  return (await catalogOf(ctx)).offered;
}

const usd = (p: Price): TDefaultModelPrice => ({
  input_per_million_usd: p.inputPerMillion / MICROS,
  output_per_million_usd: p.outputPerMillion / MICROS,
});

/**
 * GET /api/admin/model-prices: the allowed models (stored or default price), the endpoint's other
 * models (stored, else the default price, else $0 and not priced), then other priced models; the
 * offered endpoint models and the default price.
 */
export async function listModelPrices(
  ctx: AppContext,
  endpointModels: readonly string[] = [],
): Promise<TModelPriceTable> {
  const catalog = await loadCatalog(ctx);
  const out: TModelPriceTable['models'] = [];
  const seen = new Set<string>();
  const others = endpointModels.filter((m) => !isAllowed(m));
  for (const m of [...ALLOWED_MODELS, ...others, ...[...catalog.prices.keys()].sort()]) {
    if (seen.has(m)) continue;
    seen.add(m);
    const stored = catalog.prices.get(m);
    const builtIn = defaultPrice(m);
    out.push({
      model: m,
      ...usd(stored ?? builtIn ?? catalog.defaultPrice ?? FREE),
      priced: stored !== undefined || builtIn !== undefined,
    });
  }
  return {
    models: out,
    endpoint_models: others,
    offered_models: [...catalog.offered].sort(),
    default_price: catalog.defaultPrice ? usd(catalog.defaultPrice) : null,
  };
}

/** PUT /api/admin/model-prices: the given prices, and the offer and default price when given. */
export async function saveModelPrices(ctx: AppContext, body: TModelPrices): Promise<void> {
  const now = nowIso();
  const builtIn = (body.offered_models ?? []).filter(isAllowed);
  if (builtIn.length > 0)
    throw new AppError(422, [
      {
        loc: ['body', 'offered_models'],
        msg: `The built-in models are always offered: remove ${builtIn.join(', ')} from the list.`,
        type: 'value_error',
      },
    ]);
  await withTx(ctx.db, async (trx) => {
    await repo.upsertPrices(
      trx,
      body.models.map((m) => ({
        model: m.model,
        input_micros_per_million: toMicros(m.input_per_million_usd),
        output_micros_per_million: toMicros(m.output_per_million_usd),
        updated_at: now,
      })),
    );
    if (body.offered_models) await repo.replaceOffers(trx, [...new Set(body.offered_models)], now);
    if (body.default_price !== undefined) {
      const d = body.default_price;
      await repo.putSetting(
        trx,
        DEFAULT_PRICE_KEY,
        d === null
          ? null
          : JSON.stringify({
              inputPerMillion: toMicros(d.input_per_million_usd),
              outputPerMillion: toMicros(d.output_per_million_usd),
            }),
        now,
      );
    }
  });
  cache.delete(ctx.db);
}
