/**
 * The chat group's burst of turns alone (issue #18), ROUNDS times, each on a fresh server and model:
 * p50 first token after the POST and of it POST → model request. The full chat group seeds a long
 * conversation first; this repeats only the burst, to compare changes in one session.
 * Usage: npm run build && ROUNDS=5 npx tsx bench/probes/burst.ts   (SQLite; PostgreSQL: inside
 * `node scripts/with-postgres.mjs`). BURST_WARM=1 opens the fifty connections before the burst, so no
 * accept is part of the figure (docs/decisions/ 2026-11-28).
 */
import { pct } from '../src/own-server.ts';
import { useEngine } from '../src/engine.ts';
import { quietNote } from '../src/quiet-client.ts';
import { burstOfTurns } from '../src/scenarios/chat.ts';

async function main() {
  // Inside scripts/with-postgres.mjs: the servers use a database each in its throwaway cluster.
  if (process.env.TEST_PG_URL) useEngine('postgres', process.env.TEST_PG_URL);
  const rounds = Number(process.env.ROUNDS ?? 5);
  const firsts: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const { apps: turns, quiet } = await burstOfTurns('ceo@demo.example');
    console.log(quietNote(quiet));
    const first = pct(
      turns.map((t) => t.first),
      50,
      1,
    );
    const toModel = pct(
      turns.map((t) => t.toModel ?? Number.NaN),
      50,
      1,
    );
    const chunks = turns.flatMap((t) => t.chunks);
    firsts.push(first);
    console.log(
      `round ${i + 1}: first token p50 ${first} ms, POST → model request p50 ${toModel} ms, chunk p99 ${pct(chunks, 99, 1)} ms`,
    );
  }
  console.log(`median of rounds: ${pct(firsts, 50, 1)} ms`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
