/** Money is kept as integer micro-dollars (exact sums); the API speaks dollars. */
export const MICROS = 1_000_000;

export const toMicros = (usd: number) => Math.round(usd * MICROS);
/** Dollars from micro-dollars (a bigint column may read as a string on PostgreSQL). */
export const toUsd = (micros: number | string | bigint | null | undefined) => Number(micros ?? 0) / MICROS;
export const num = (v: number | string | bigint | null | undefined) => Number(v ?? 0);

/** "$48.20" */
export const dollars = (usd: number) => `$${usd.toFixed(2)}`;

/** Cost in micro-dollars of a call, from prices per million tokens (in micro-dollars). */
export function costMicros(
  price: { inputPerMillion: number; outputPerMillion: number },
  inputTokens: number,
  outputTokens: number,
): number {
  return Math.ceil((inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / MICROS);
}
