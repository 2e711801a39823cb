import { describe, expect, it } from 'vitest';
import { median, pairResult, processCpuMs, type RunFigures, statTicks } from './interleave.ts';

const run = (cpu: number, rps: number, p99 = 10): RunFigures => ({
  req_per_sec: rps,
  p50_ms: 1,
  p99_ms: p99,
  requests: rps * 5,
  bad: 0,
  cpu_ms_per_req: cpu,
});

describe('interleaved product/floor pairs', () => {
  it('reads utime + stime from a /proc stat line whose process name holds spaces and parentheses', () => {
    const line = '4242 (node (my app)) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 75 0 0 20 0 11 0 300';
    expect(statTicks(line)).toBe(325);
  });

  it("reads this process's own CPU time from /proc, and 0 for a process that is gone", () => {
    expect(processCpuMs(process.pid)).toBeGreaterThan(0);
    expect(processCpuMs(2 ** 22 + 7)).toBe(0);
  });

  it('takes the median (the mean of the middle two for an even count)', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('judges on the median of per-round ratios, not on the ratio of medians', () => {
    // The machine slowed down in round 2 for both sides alike: each round's ratio stays 1.1.
    const product = [run(1.1, 1000), run(2.2, 500), run(1.1, 1000)];
    const floor = [run(1.0, 1100), run(2.0, 550), run(1.0, 1100)];
    const r = pairResult(product, floor);
    expect(r.cpu_ratio).toBe(1.1);
    expect(r.rps_ratio).toBe(0.909);
    expect(r.product_median.cpu_ms_per_req).toBe(1.1);
    expect(r.floor_median.req_per_sec).toBe(1100);
  });
});
