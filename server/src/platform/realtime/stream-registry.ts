import type { Db } from '../../db/index.ts';

export interface OpenStream {
  sessionId: string | null;
  /** Ends the stream (server drain, revoked session). */
  end(reason: 'drain' | 'revoked'): void;
}

/**
 * Every open SSE stream of this instance. One timer re-checks all their sessions in a single query
 * (instead of one query per stream), so a revoked session's streams close within a few seconds, and
 * drain() ends them all on shutdown.
 */
export class StreamRegistry {
  private readonly streams = new Set<OpenStream>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly checkEveryMs = 3000,
  ) {}

  add(stream: OpenStream): () => void {
    this.streams.add(stream);
    if (!this.timer) {
      this.timer = setInterval(() => void this.checkSessions(), this.checkEveryMs);
      this.timer.unref();
    }
    return () => {
      this.streams.delete(stream);
      if (this.streams.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  get size(): number {
    return this.streams.size;
  }

  private async checkSessions(): Promise<void> {
    const ids = [...new Set([...this.streams].map((s) => s.sessionId).filter((s): s is string => !!s))];
    if (ids.length === 0) return;
    const live = new Set<string>();
    const now = new Date().toISOString();
    try {
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await this.db
          .selectFrom('sessions')
          .select('id')
          .where('id', 'in', ids.slice(i, i + 500))
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', now)
          .execute();
        for (const r of rows) live.add(r.id);
      }
    } catch {
      return; // database busy or closing: check again on the next tick
    }
    for (const s of [...this.streams]) {
      if (s.sessionId && !live.has(s.sessionId)) s.end('revoked');
    }
  }

  drain(): void {
    for (const s of [...this.streams]) s.end('drain');
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
