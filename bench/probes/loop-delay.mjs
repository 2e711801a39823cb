// Preloaded into the bench's server process (node --import): its event-loop delay, for ARCHITECTURE.md
// section 8's "event loop under list + write load" budget. On SIGUSR2 it writes the percentiles since the
// last signal to BENCH_LOOP_FILE and starts over. Bench-only: the product never loads this file.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const figures = { p50_ms: ms(h.percentile(50)), p99_ms: ms(h.percentile(99)), max_ms: ms(h.max) };
    writeFileSync(file, JSON.stringify({ at: Date.now(), ...figures }));
    h.reset();
  });
}
