/**
 * The time every limiter reads. Production never moves it; tests advance it to see a window reset
 * without sleeping through it.
 */
export class LimitClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
