import pg from 'pg';
/**
 * Concurrent writers creating tasks through the API, as clients would during a fault: every 201 is an
 * acknowledged write whose id must be readable afterwards; every other answer is counted by status.
 */
export interface WriteFigures {
  acknowledged: string[];
  statuses: Record<string, number>;
  /** Answers of 503 that carried `Retry-After`. */
  retryAfter: number;
}

export function startWriters(url: string, token: string, count: number) {
  const figures: WriteFigures = { acknowledged: [], statuses: {}, retryAfter: 0 };
  let stopping = false;
  const one = async (w: number) => {
    let i = 0;
    while (!stopping) {
      let status = 'network';
      try {
        const res = await fetch(`${url}/api/tasks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `fault writer ${w} #${i++}` }),
        });
        status = String(res.status);
        const body = (await res.json().catch(() => null)) as { id?: string } | null;
        if (res.status === 201 && body?.id) figures.acknowledged.push(body.id);
        if (res.status === 503 && res.headers.get('retry-after') === '5') figures.retryAfter++;
      } catch {
        // The server is down (SIGKILL) or refused: not acknowledged, so nothing to check.
        await new Promise((r) => setTimeout(r, 20));
      }
      figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
      if (status !== '201') await new Promise((r) => setTimeout(r, 20));
    }
  };
  const running = Array.from({ length: count }, (_, w) => one(w));
  return {
    figures,
    /** Stops the writers and waits for the requests in flight. */
    async stop(): Promise<WriteFigures> {
      stopping = true;
      await Promise.all(running);
      return figures;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Rounds per scenario: small in `npm test`, more with `npm run faults` (FAULT_ROUNDS). */
export const ROUNDS = Math.max(1, Number(process.env.FAULT_ROUNDS ?? 2));
export const WRITERS = Math.max(1, Number(process.env.FAULT_WRITERS ?? 4));

/** Prints a figure line (the long run's output; CI shows it too). */
export function figure(name: string, values: Record<string, unknown>): void {
  console.log(
    `[faults] ${name}: ${Object.entries(values)
      .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`)
      .join(' ')}`,
  );
}

/** The acknowledged task ids that are not in the PostgreSQL database at `url` (lost writes). */
export async function missingPgTasks(url: string, ids: string[]): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query('select id from tasks where id = any($1)', [ids]);
    const found = new Set(r.rows.map((row: { id: string }) => row.id));
    return ids.filter((id) => !found.has(id));
  } finally {
    await c.end();
  }
}
