import type { FastifyInstance } from 'fastify';
import type { WalDurability } from '../db/durability.ts';

/**
 * No response shows a write before it is on disk: while a group-commit flush is due (another
 * request's commit, made visible by SQLite before its flush ends), a response waits for it. Free
 * when nothing is pending, which is almost always; see {@link WalDurability}.
 */
export function registerDurableResponses(app: FastifyInstance, durability: WalDurability | null): void {
  if (!durability) return;
  app.addHook('onSend', (_req, _reply, payload, done) => {
    if (durability.clean) {
      done(null, payload);
      return;
    }
    durability.settled().then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
}
