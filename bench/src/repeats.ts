/**
 * The median of repeated latency measurements (a burst, a fan-out): one repeat on this VM moved by
 * half from one minute to the next with the same code, so a latency budget is checked against the
 * middle repeat, as an HTTP row is against its median run. Every repeat's figure stays in the note.
 */
export function medianRepeat<T>(repeats: readonly T[], figure: (r: T) => number): T {
  if (!repeats.length) throw new Error('no repeat to take the median of');
  const sorted = [...repeats].sort((a, b) => figure(a) - figure(b));
  // An even count takes the upper middle: the verdict never rests on the better half alone.
  return sorted[Math.floor(sorted.length / 2)] as T;
}

/** "48 / 62 / 50 ms": each repeat's figure in the order measured. */
export const eachRepeat = (figures: readonly number[], unit = 'ms') => `${figures.join(' / ')} ${unit}`;
