import { ALLOWED_MODELS, DEFAULT_MODEL_PRICES, type TModelPrice, type TModelPrices } from '@cc/contract';
import { nowIso } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { MICROS, toMicros } from './usage-money.ts';
import * as repo from './usage.repository.ts';

export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
}

const FREE: Price = { inputPerMillion: 0, outputPerMillion: 0 };
/** Prices are read on every model call: cached a little, and dropped by this instance's own edits. */
const TTL_MS = 30_000;
const cache = new WeakMap<object, { at: number; prices: Promise<Map<string, Price>> }>();

async function loadPrices(ctx: AppContext): Promise<Map<string, Price>> {
  const rows = await repo.listPrices(ctx.db);
  return new Map(
    rows.map((r) => [
      r.model,
      {
        inputPerMillion: Number(r.input_micros_per_million),
        outputPerMillion: Number(r.output_micros_per_million),
      },
    ]),
  );
}

function storedPrices(ctx: AppContext): Promise<Map<string, Price>> {
  const hit = cache.get(ctx.db);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.prices;
  const prices = loadPrices(ctx);
  prices.catch(() => cache.delete(ctx.db));
  cache.set(ctx.db, { at: Date.now(), prices });
  return prices;
}

const isAllowed = (m: string): m is (typeof ALLOWED_MODELS)[number] =>
  (ALLOWED_MODELS as readonly string[]).includes(m);

function defaultPrice(model: string): Price | undefined {
  if (!isAllowed(model)) return undefined;
  const d = DEFAULT_MODEL_PRICES[model];
  return { inputPerMillion: toMicros(d.input), outputPerMillion: toMicros(d.output) };
}

/**
 * The price of a call: the offline engine is free; an OpenAI-compatible endpoint's models are free
 * until priced (it may be a local server: the default table describes the providers' own prices);
 * OpenAI and Google models use the admin's price, else the default table.
 */
export async function priceOf(ctx: AppContext, model: string, engine: string): Promise<Price> {
  if (engine === 'offline') return FREE;
  const stored = (await storedPrices(ctx)).get(model);
  if (stored) return stored;
  if (engine === 'openai-compatible') return FREE;
  return defaultPrice(model) ?? FREE;
}

const present = (model: string, p: Price): TModelPrice => ({
  model,
  input_per_million_usd: p.inputPerMillion / MICROS,
  output_per_million_usd: p.outputPerMillion / MICROS,
});

/** GET /api/admin/model-prices: the allowed models (stored or default price), then other priced models. */
export async function listModelPrices(
  ctx: AppContext,
  extraModels: readonly string[] = [],
): Promise<TModelPrices> {
  const stored = await loadPrices(ctx);
  const out: TModelPrice[] = [];
  const seen = new Set<string>();
  for (const m of [...ALLOWED_MODELS, ...extraModels, ...[...stored.keys()].sort()]) {
    if (seen.has(m)) continue;
    seen.add(m);
    out.push(present(m, stored.get(m) ?? defaultPrice(m) ?? FREE));
  }
  return { models: out };
}

/** PUT /api/admin/model-prices: stores the given models' prices (others keep theirs). */
export async function saveModelPrices(ctx: AppContext, body: TModelPrices): Promise<void> {
  const now = nowIso();
  await repo.upsertPrices(
    ctx.db,
    body.models.map((m) => ({
      model: m.model,
      input_micros_per_million: toMicros(m.input_per_million_usd),
      output_micros_per_million: toMicros(m.output_per_million_usd),
      updated_at: now,
    })),
  );
  cache.delete(ctx.db);
}
