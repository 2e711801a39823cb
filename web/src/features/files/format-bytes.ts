/** The spec's units (section 9): Bytes up to YB in steps of 1024. */
export const FILE_SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/**
 * A byte count for people: "0 Bytes", "512 Bytes", "1.5 KB", "25 MB" … "3 YB", in steps of 1024 with
 * at most `decimals` digits after the point (trailing zeros dropped). Values past YB stay in YB.
 */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const last = FILE_SIZE_UNITS.length - 1;
  let i = Math.min(last, Math.floor(Math.log(bytes) / Math.log(1024)));
  // Floating point puts exact powers of 1024 one step low now and then (log(1024**5)/log(1024) ≈ 4.9999…).
  if (i < last && bytes >= 1024 ** (i + 1)) i += 1;
  const places = Math.max(0, Math.floor(decimals));
  let value = Number((bytes / 1024 ** i).toFixed(places));
  // 1023.999 KB rounds to 1024 KB: show 1 MB instead.
  if (value >= 1024 && i < last) {
    i += 1;
    value = Number((bytes / 1024 ** i).toFixed(places));
  }
  return `${value} ${FILE_SIZE_UNITS[i]}`;
}
