import { afterEach, describe, expect, it, vi } from 'vitest';

const OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

/** Loads lib/format afresh with requestIdleCallback held, and counts the Intl formatters built. */
async function loadFormat() {
  const idle: (() => void)[] = [];
  vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
  const Real = Intl.DateTimeFormat;
  // A counting stand-in that hands back a real formatter.
  const built = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
    this: unknown,
    ...args: ConstructorParameters<typeof Intl.DateTimeFormat>
  ) {
    return new Real(...args);
  } as unknown as typeof Intl.DateTimeFormat);
  vi.resetModules();
  const format = await import('./format');
  const runIdle = () => {
    for (const cb of idle.splice(0)) cb();
  };
  return { ...format, built, runIdle };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('date formatting', () => {
  it('builds its one Intl formatter in idle time, not while the page loads the module', async () => {
    const { formatDay, formatDate, built, runIdle } = await loadFormat();
    expect(built).not.toHaveBeenCalled();
    runIdle();
    expect(built).toHaveBeenCalledTimes(1);
    const day = formatDay('2026-03-01');
    const date = formatDate('2026-02-01T12:00:00.000Z');
    expect(built).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
    expect(day).toBe(new Intl.DateTimeFormat(undefined, OPTIONS).format(new Date(2026, 2, 1)));
    expect(date).toBe(
      new Intl.DateTimeFormat(undefined, OPTIONS).format(new Date('2026-02-01T12:00:00.000Z')),
    );
  });

  it('builds it on the spot when a date is shown before the idle time, and only once', async () => {
    const { formatDay, built, runIdle } = await loadFormat();
    expect(formatDay('2026-12-31')).not.toBe('—');
    runIdle();
    expect(formatDay(null)).toBe('—');
    expect(formatDay('not a date')).toBe('—');
    expect(built).toHaveBeenCalledTimes(1);
  });
});
