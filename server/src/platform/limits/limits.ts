import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import { LoginGuard } from '../auth/login-guard.ts';
import { AppError } from '../errors.ts';
import { ConcurrencyLimiter } from './concurrency-limiter.ts';
import { LimitClock } from './limit-clock.ts';
import { type LimitState, limitHeaders, waitInWords } from './limit-state.ts';
import { WindowLimiter } from './window-limiter.ts';

const MINUTE = 60_000;
const FIFTEEN_MINUTES = 15 * MINUTE;

/** Every per-user limit of the app (issue 16 §3), built from the configuration around one clock. */
export interface Limits {
  clock: LimitClock;
  chatTurns: WindowLimiter;
  runStarts: WindowLimiter;
  uploads: WindowLimiter;
  streamTickets: WindowLimiter;
  streams: ConcurrencyLimiter;
  /** Tool calls on `/mcp` (each JSON-RPC batch element counts), per API key and per key owner. */
  mcpCallsPerKey: WindowLimiter;
  mcpCallsPerUser: WindowLimiter;
  /** Wrong current passwords on `PATCH /api/users/me`, per user. */
  currentPassword: LoginGuard;
}

export function createLimits(config: AppConfig['limits'], clock = new LimitClock()): Limits {
  return {
    clock,
    chatTurns: new WindowLimiter(config.chatTurnsPerMinute, MINUTE, clock),
    runStarts: new WindowLimiter(config.runStartsPerMinute, MINUTE, clock),
    uploads: new WindowLimiter(config.uploadsPerMinute, MINUTE, clock),
    streamTickets: new WindowLimiter(config.streamTicketsPerMinute, MINUTE, clock),
    streams: new ConcurrencyLimiter(config.concurrentStreams),
    mcpCallsPerKey: new WindowLimiter(config.mcpCallsPerKeyPerMinute, MINUTE, clock),
    mcpCallsPerUser: new WindowLimiter(config.mcpCallsPerUserPerMinute, MINUTE, clock),
    currentPassword: new LoginGuard(config.currentPasswordMaxFailures, FIFTEEN_MINUTES, clock),
  };
}

/**
 * Whom a limit counts: the signed-in user, or the IP where there is none. Read in the handler (after
 * authentication, wherever the auth hook runs), never in an earlier hook.
 */
export function callerKey(req: FastifyRequest): string {
  return req.user ? `user:${req.user.id}` : `ip:${req.ip}`;
}

/** The 429 of a refused limited call: its `detail` for the screen and the headers that say when to retry. */
export function limitError(state: LimitState, detail: string): AppError {
  return new AppError(429, detail, limitHeaders(state, true));
}

/**
 * Counts one call of the caller against `limiter`: the answer carries `x-ratelimit-*`, and a call
 * over the limit gets 429 whose detail is `what` plus when to retry.
 */
export function enforceLimit(
  req: FastifyRequest,
  reply: FastifyReply,
  limiter: WindowLimiter,
  what: string,
): void {
  const { allowed, state } = limiter.take(callerKey(req));
  if (!allowed) throw limitError(state, `${what} Please try again in ${waitInWords(state.resetSeconds)}.`);
  reply.headers(limitHeaders(state, false));
}

/** One limit a call counts against: the limiter, whose count (a user, a key) and the refusal's words. */
export interface LimitCheck {
  limiter: WindowLimiter;
  key: string;
  what: string;
}

/**
 * Counts `cost` calls against every check, or against none: the first limit they do not fit in gives
 * the 429 (its detail and when to retry). The answer's `x-ratelimit-*` are those of the tightest limit.
 */
export function enforceLimits(reply: FastifyReply, checks: readonly LimitCheck[], cost: number): void {
  const full = checks.find((c) => !c.limiter.fits(c.key, cost));
  if (full) {
    const { state } = full.limiter.take(full.key, cost);
    throw limitError(state, `${full.what} Please try again in ${waitInWords(state.resetSeconds)}.`);
  }
  const states = checks.map((c) => c.limiter.take(c.key, cost).state);
  const tightest = states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  reply.headers(limitHeaders(tightest, false));
}

/** A locked account's 429 (sign-in, current password): when to retry, in words and in `Retry-After`. */
export function lockoutError(guard: LoginGuard, key: string, what: string): AppError {
  const seconds = guard.retryAfterSeconds(key);
  return new AppError(429, `${what} Please try again in ${waitInWords(seconds)}.`, {
    'retry-after': String(seconds),
    'x-ratelimit-limit': String(guard.maxFailures),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(seconds),
  });
}
