/** "$48.20"; amounts under a cent keep four decimals so small spend is not shown as $0.00. */
export function usd(value: number | null | undefined): string {
  const v = value ?? 0;
  if (v > 0 && v < 0.01) return `$${v.toFixed(4)}`;
  return `$${v.toFixed(2)}`;
}

/** The month of a YYYY-MM as its first and last day. */
export function monthBounds(month: string): { since: string; until: string } {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { since: `${month}-01`, until: `${month}-${String(last).padStart(2, '0')}` };
}

export const currentMonth = () => new Date().toISOString().slice(0, 7);

/** Share of a budget used, 0..1 (null without a budget). */
export function usedShare(b: { monthly_usd: number | null; used_usd: number }): number | null {
  if (b.monthly_usd === null) return null;
  if (b.monthly_usd === 0) return 1;
  return b.used_usd / b.monthly_usd;
}

/** Administrators are warned from this share of a budget on (docs/decisions/, 2026-11-24). */
export const WARN_SHARE = 0.8;
/** The chat composer shows what is left below this share. */
export const LOW_SHARE = 0.2;
