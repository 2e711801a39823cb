import type { AppConfig } from '../config.ts';
import type { TableClock } from '../db/table-clock.ts';
import type { WalDurability } from '../db/durability.ts';
import type { Db, Dialect } from '../db/index.ts';
import type { LoginGuard } from './auth/login-guard.ts';
import type { ReadCache } from './read-cache.ts';
import type { TokenSigner } from './auth/tokens.ts';
import type { Limits } from './limits/limits.ts';
import type { EventBus } from './realtime/event-bus.ts';
import type { StreamRegistry } from './realtime/stream-registry.ts';

/** What services need from the running app; passed explicitly, so tests and the bench can build one. */
export interface AppContext {
  db: Db;
  dialect: Dialect;
  /** When tables last changed, for reads cached in this process (null: nothing is cached). */
  changes: TableClock | null;
  /** Users' memberships, cached on `changes` (null or absent: read every time). */
  memberships?: ReadCache<Map<string, string>> | null;
  /** SQLite's group commit: what is read is shown only once it is on disk (null: nothing to wait for). */
  durability: WalDurability | null;
  config: AppConfig;
  signer: TokenSigner;
  loginGuard: LoginGuard;
  /** Per-user limits on costly or guessable calls (chat, runs, uploads, streams, password checks). */
  limits: Limits;
  /** Realtime notes between writers and streams (in-process, or PostgreSQL LISTEN/NOTIFY). */
  bus: EventBus;
  /** Open SSE streams of this instance. */
  streams: StreamRegistry;
}
