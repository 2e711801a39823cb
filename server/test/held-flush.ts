import type { WalDurability } from '../src/db/durability.ts';
import type { AppContext } from '../src/platform/context.ts';

/**
 * Makes the streams of `ctx` see a group-commit flush that stays due (another write in flight) until
 * `land()`: what they send meanwhile is what they may send without waiting for it. `restore()` puts
 * the real one back. Writers keep their own (real) flush, so every write is still on disk when noted.
 */
export function holdFlush(ctx: AppContext) {
  const real = ctx.durability;
  let resolve: () => void = () => {};
  const landed = new Promise<void>((r) => {
    resolve = r;
  });
  const held = { clean: false, settled: () => landed };
  ctx.durability = held as unknown as WalDurability;
  return {
    land() {
      held.clean = true;
      resolve();
    },
    restore() {
      ctx.durability = real;
    },
  };
}
