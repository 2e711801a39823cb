/**
 * Runs the bench process's garbage collector now (the bench runs node with --expose-gc), so a
 * collection of what earlier groups left (seeded rows, samples) does not fall inside a latency
 * measurement whose clients live in this process: a pause there is the bench's, not the server's.
 */
export function collectBenchGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
}
