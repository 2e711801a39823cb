import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import {
  budgetApplies,
  type MeterTarget,
  type Reservation,
  releaseReservation,
  reserveSpend,
  settleSpend,
} from '../../modules/usage/usage-meter.service.ts';
import { SpendLease } from '../../modules/usage/usage-leases.service.ts';
import { payingOrganization } from '../../modules/usage/usage-payer.ts';
import {
  callPriceOf,
  isOffered,
  notOffered,
  type Price,
  unpricedUnderBudget,
} from '../../modules/usage/usage-prices.service.ts';
import { costMicros } from '../../modules/usage/usage-money.ts';
import { usageNow } from '../../modules/usage/usage-clock.ts';
import type { AppContext } from '../../platform/context.ts';
import { featureOf, type MeterScope } from './meter-scope.ts';

/** Output tokens a call is assumed to use when it sets no limit (reserved, then settled to the real figure). */
export const DEFAULT_OUTPUT_ESTIMATE_TOKENS = 1_000;
/** Rough characters per token, for estimates and for streams stopped before the model reported usage. */
const CHARS_PER_TOKEN = 4;

function promptChars(prompt: LanguageModelV3Prompt): number {
  let n = 0;
  for (const m of prompt) {
    if (typeof m.content === 'string') n += m.content.length;
    else for (const p of m.content) if ('text' in p && typeof p.text === 'string') n += p.text.length;
  }
  return n;
}

const tokensOf = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

interface Who {
  engine: string;
  /** the model that answers (what is priced and recorded) */
  model: string;
  /** the id the caller asked for (what an administrator offers) */
  requested: string;
}

/** A reservation held for a call, with what it was reserved for and at. */
interface Hold {
  reservation: Reservation;
  lease: SpendLease;
  target: MeterTarget;
  price: Price;
}

/**
 * The metering of one resolved model, as AI SDK middleware (`wrapLanguageModel`): before each call its
 * estimated cost is reserved against the budgets of its scope (a refusal is an AppError 429 and no
 * request leaves), after it the real usage and cost are settled and recorded with the call's feature,
 * duration and outcome. A stream stopped early records the tokens it had used (the prompt's estimate
 * and the text received). Made per resolveModel call; it holds at most one reservation made ahead of
 * the first call ({@link reserveAhead}), so a chat turn is refused before it answers anything.
 */
export class ModelMeter {
  private ahead: Promise<Hold> | null = null;
  private payer: Promise<string | null> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly who: Who,
    private readonly scope: MeterScope,
  ) {}

  /** The call's target: its organization resolved once per model by the one rule of usage-payer.ts. */
  private async target(providerOptions: unknown): Promise<MeterTarget> {
    const s = this.scope;
    this.payer ??= payingOrganization(this.ctx, {
      userId: s.userId ?? null,
      organizationId: s.organizationId ?? null,
    });
    const organizationId = await this.payer.catch((err) => {
      this.payer = null;
      throw err;
    });
    return {
      userId: s.userId ?? null,
      organizationId,
      feature: featureOf(s, providerOptions),
      conversationId: s.conversationId ?? null,
      runId: s.runId ?? null,
      agentId: s.agentId ?? null,
      model: this.who.model,
      engine: this.who.engine,
    };
  }

  /**
   * The call's price once it may be made: a model no administrator offers is refused, and so is an
   * unpriced one wherever a budget applies (it would spend without limit); both 422, before anything
   * is reserved or sent (issue 46 row 13).
   */
  private async estimate(target: MeterTarget, chars: number, maxOutputTokens: number | undefined) {
    const { ctx, who } = this;
    if (!(await isOffered(ctx, who.requested, who.engine))) throw notOffered(who.requested);
    const { price, unpriced } = await callPriceOf(ctx, who.model, who.engine);
    if (unpriced && (await budgetApplies(ctx, target))) throw unpricedUnderBudget(who.requested);
    return {
      price,
      micros: costMicros(price, tokensOf(chars), maxOutputTokens ?? DEFAULT_OUTPUT_ESTIMATE_TOKENS),
    };
  }

  /**
   * Reserves the first call's estimate now (for a prompt of `chars` characters), so a caller can be
   * refused (429) before it answers anything; the first call then uses it as it is. {@link release}
   * gives it back when no call follows.
   */
  async reserveAhead(chars: number): Promise<void> {
    const target = await this.target(undefined);
    const { price, micros } = await this.estimate(target, chars, undefined);
    this.ahead = this.reserve(target, price, micros, tokensOf(chars));
    await this.ahead;
  }

  /** The hold and, for a billed call, its lease row (issue 46 rows 10 and 11). */
  private async reserve(
    target: MeterTarget,
    price: Price,
    micros: number,
    inputTokens: number,
  ): Promise<Hold> {
    // The offline engine bills nothing: its calls need no row to be settled after a crash.
    const leased = this.who.engine !== 'offline';
    const reservation = await reserveSpend(
      this.ctx,
      target,
      micros,
      leased ? { call: target, price, inputTokens } : undefined,
    );
    return { reservation, lease: new SpendLease(this.ctx, reservation.id, inputTokens), target, price };
  }

  /** Settles an unused reservation made ahead at $0 (nothing was called). */
  async release(): Promise<void> {
    const r = this.ahead;
    this.ahead = null;
    if (!r) return;
    const { reservation, lease } = await r;
    lease.stop();
    await releaseReservation(this.ctx, reservation);
  }

  private async begin(options: LanguageModelV3CallOptions) {
    const chars = promptChars(options.prompt);
    // The first call of a turn reserved ahead uses that hold, its target and its price as they are:
    // checked a moment ago, so no query stands between it and the model request.
    let held: Hold;
    if (this.ahead) {
      held = await this.ahead;
      this.ahead = null;
      held.lease.input = tokensOf(chars);
    } else {
      const target = await this.target(options.providerOptions);
      const { price, micros } = await this.estimate(target, chars, options.maxOutputTokens);
      held = await this.reserve(target, price, micros, tokensOf(chars));
    }
    const { reservation, lease, target, price } = held;
    const started = performance.now();
    const finish = (inputTokens: number, outputTokens: number, outcome: 'ok' | 'error' | 'aborted') => {
      lease.stop();
      return settleSpend(this.ctx, target, reservation, {
        inputTokens,
        outputTokens,
        costMicros: costMicros(price, inputTokens, outputTokens),
        durationMs: performance.now() - started,
        outcome,
        at: usageNow(this.ctx),
      }).catch((err) => {
        // Metering must never fail the call it measures; the call has happened.
        process.emitWarning(`usage not recorded: ${err instanceof Error ? err.message : String(err)}`);
      });
    };
    return { chars, finish, lease };
  }

  readonly middleware: LanguageModelV3Middleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate, params }) => {
      const { chars, finish } = await this.begin(params);
      try {
        const result = await doGenerate();
        await finish(
          result.usage.inputTokens.total ?? tokensOf(chars),
          result.usage.outputTokens.total ?? 0,
          'ok',
        );
        return result;
      } catch (err) {
        await finish(0, 0, params.abortSignal?.aborted ? 'aborted' : 'error');
        throw err;
      }
    },
    wrapStream: async ({ doStream, params }) => {
      const { chars, finish, lease } = await this.begin(params);
      let inner: Awaited<ReturnType<typeof doStream>>;
      try {
        inner = await doStream();
      } catch (err) {
        await finish(0, 0, params.abortSignal?.aborted ? 'aborted' : 'error');
        throw err;
      }
      const reader = inner.stream.getReader();
      let outChars = 0;
      let usage: { input?: number; output?: number } | null = null;
      let settled = false;
      const settle = (outcome: 'ok' | 'error' | 'aborted') => {
        if (settled) return Promise.resolve();
        settled = true;
        // Without the model's figures (a stream stopped early), what was sent and received so far.
        return finish(usage?.input ?? tokensOf(chars), usage?.output ?? tokensOf(outChars), outcome);
      };
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(out) {
          let part: ReadableStreamReadResult<LanguageModelV3StreamPart>;
          try {
            part = await reader.read();
          } catch (err) {
            await settle(params.abortSignal?.aborted ? 'aborted' : 'error');
            out.error(err);
            return;
          }
          if (part.done) {
            await settle('ok');
            out.close();
            return;
          }
          const v = part.value;
          if (v.type === 'text-delta' || v.type === 'reasoning-delta' || v.type === 'tool-input-delta') {
            outChars += v.delta.length;
            // What the lease records at its next renewal (a sweep settles it if this instance dies).
            lease.output = tokensOf(outChars);
          } else if (v.type === 'finish') {
            usage = { input: v.usage.inputTokens.total, output: v.usage.outputTokens.total };
            if (usage.input !== undefined) lease.input = usage.input;
            if (usage.output !== undefined) lease.output = usage.output;
          } else if (v.type === 'error') await settle('error');
          out.enqueue(v);
        },
        async cancel(reason) {
          // Stop the upstream request first; then record what the stream had used.
          const cancelled = reader.cancel(reason).catch(() => {});
          await settle('aborted');
          await cancelled;
        },
      });
      return { ...inner, stream };
    },
  };
}
