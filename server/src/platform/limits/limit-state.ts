/** Where a caller stands against one limit, as the `x-ratelimit-*` headers tell it. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the count starts over (or, for a refused call, until a retry can succeed). */
  resetSeconds: number;
}

/** `x-ratelimit-*` on every limited call; `Retry-After` too when the call is refused. */
export function limitHeaders(state: LimitState, refused: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(Math.max(0, state.remaining)),
    'x-ratelimit-reset': String(state.resetSeconds),
  };
  if (refused) headers['retry-after'] = String(state.resetSeconds);
  return headers;
}

/** "12 seconds", "1 minute", "15 minutes": how long to wait, in words for the screen. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
