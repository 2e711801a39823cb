import { randomBytes } from 'node:crypto';
import {
  alarm,
  type BudgetCheck,
  cpuBudget,
  type LayerCheck,
  latencyBudget,
  layerCheck,
  rpsBudget,
} from '../budgets.ts';
import type { Engine } from '../config.ts';
import { type FloorServer, startFloor } from '../floors.ts';
import type { HttpTarget } from '../http.ts';
import {
  BackendCpu,
  type InterleaveSettings,
  interleave,
  type PairResult,
  type Side,
} from '../interleave.ts';
import { type OwnServer, signInAll, startOwnServer } from '../own-server.ts';
import { sameBodies, sameBodiesNote } from '../same-bodies.ts';
import type { BenchContext, ScenarioGroup } from './types.ts';
import { seedWorkspace } from './workspace-seed.ts';

/**
 * The workspace against its floors (issue 48 §1, ARCHITECTURE.md section 8), on the seeded workspace
 * (10k users, 100k tasks, 20k contacts, 50k notes, 5k goals):
 * - list miss: the first page of 50 of tasks, contacts, goals and notes, 200 users in rotation, the
 *   product with its read cache off, against the list floor: CPU/req ≤ 1.2× (SQLite), ≤ 1.3× (PostgreSQL);
 * - durable task write against the write floor: CPU/req ≤ 1.5× / ≤ 1.6×;
 * - GET /api/users/me (the product as configured by default) against the auth floor: ≥ 0.6× its req/s.
 * Each floor's body is first checked byte-identical with the product's for all 200 users. The
 * product's event-loop delay over the list pairs and over the write pair is held to p99 ≤ 50 ms (it
 * also spans the floor's turns, when the product idles).
 * Then the on/off pair of each speed layer with a switch, on the row it claims to speed up.
 */

export const FLOOR_LISTS = [
  { name: 'tasks', path: '/api/tasks/?limit=50' },
  { name: 'contacts', path: '/api/contacts/?skip=0&limit=50' },
  { name: 'goals', path: '/api/strategic-goals/?limit=50' },
  { name: 'notes', path: '/api/journals/?skip=0&limit=50' },
];

const LIST_MAX: Record<Engine, number> = { sqlite: 1.2, postgres: 1.3 };
const WRITE_MAX: Record<Engine, number> = { sqlite: 1.5, postgres: 1.6 };
const ME_MIN = 0.6;
/** Section 8: the event loop under list and write load (monitorEventLoopDelay p99). */
const LOOP_P99_MS = 50;

const TASK_BODY = JSON.stringify({
  title: 'Bench write',
  priority: 'Medium',
  status: 'To Do',
  description: 'Created by the bench.',
});

const side = (label: string, s: { baseURL: string; pid: number }, target: HttpTarget): Side => ({
  label,
  baseURL: s.baseURL,
  pid: s.pid,
  target,
});

interface Servers {
  databaseUrl: string;
  secret: string;
  /** The product as configured by default, and with its read cache off (the list-miss rows). */
  product: OwnServer;
  miss: OwnServer;
  floors: Record<'list' | 'auth' | 'write', FloorServer>;
}

/** A product server on the pass's database with the floors' token secret and `env` on top. */
const productWith = (databaseUrl: string, secret: string, name: string, env: Record<string, string> = {}) =>
  startOwnServer({ name, databaseUrl, env: { JWT_SECRET: secret, ...env } });

async function startServers(databaseUrl: string): Promise<Servers> {
  const secret = randomBytes(48).toString('base64url');
  const product = await productWith(databaseUrl, secret, 'product');
  const miss = await productWith(databaseUrl, secret, 'product-cache-off', { READ_CACHE_MB: '0' });
  const floors = {
    list: await startFloor('list-floor', { databaseUrl, secret }),
    auth: await startFloor('auth-floor', { databaseUrl, secret }),
    write: await startFloor('write-floor', { databaseUrl, secret }),
  };
  return { databaseUrl, secret, product, miss, floors };
}

async function stopServers(s: Servers): Promise<void> {
  for (const f of Object.values(s.floors)) await f.stop();
  await s.miss.stop();
  await s.product.stop();
}

/** One on/off pair: a second product server with the layer switched off, interleaved with `on`. */
async function layerPair(
  ctx: BenchContext,
  s: Servers,
  run: InterleaveSettings,
  backends: BackendCpu | null,
  spec: { layer: string; switch: Record<string, string>; row: string; on: OwnServer; target: HttpTarget },
): Promise<LayerCheck> {
  const sw = Object.entries(spec.switch)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(`  layer ${spec.layer} (${sw}) on ${spec.row}`);
  const onEnv: Record<string, string> = spec.on === s.miss ? { READ_CACHE_MB: '0' } : {};
  const off = await productWith(s.databaseUrl, s.secret, 'layer-off', { ...onEnv, ...spec.switch });
  try {
    const pair = await interleave(
      side('layer on', spec.on, spec.target),
      side('layer off', off, spec.target),
      run,
      backends,
    );
    return { ...layerCheck(spec.layer, sw, spec.row, pair), engine: ctx.engine };
  } finally {
    await off.stop();
  }
}

export const workspaceFloors: ScenarioGroup = {
  name: 'workspace-lists',
  description:
    'seeds 10k users / 100k tasks / 20k contacts / 50k notes / 5k goals; lists (200 users, cache off), ' +
    'a durable task write and GET /api/users/me interleaved with their floors; then the speed layers on/off',
  async run(ctx) {
    const seeded = await seedWorkspace(ctx.databaseUrl);
    const notes = [
      `seeded in ${seeded.seconds} s: ${Object.entries(seeded.counts)
        .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
        .join(', ')}`,
    ];
    console.log(`  ${notes[0]}`);
    const s = await startServers(ctx.databaseUrl);
    const backends = await BackendCpu.open(ctx.databaseUrl);
    const budgets: BudgetCheck[] = [];
    const layers: LayerCheck[] = [];
    const pairs: { name: string; pair: PairResult }[] = [];
    const run: InterleaveSettings = {
      rounds: ctx.settings.rounds,
      duration: ctx.settings.duration,
      warmup: ctx.settings.warmup,
      connections: ctx.settings.connections,
    };
    try {
      const tokens = await signInAll(s.product.baseURL, seeded.rotation);
      const rotate = tokens.map((t) => ({ authorization: `Bearer ${t}` }));
      const busy = { authorization: `Bearer ${tokens[1]}` };
      const bodiesMatch = async (name: string, floor: FloorServer, path: string) => {
        const same = await sameBodies(s.miss.baseURL, floor.baseURL, path, tokens);
        notes.push(sameBodiesNote(same));
        console.log(`  ${sameBodiesNote(same)}`);
        budgets.push({
          group: this.name,
          name: `${name}: floor body byte-identical`,
          budget: `${same.checked} of ${same.checked} users`,
          figure: `${same.checked - same.differences.length} of ${same.checked}`,
          pass: same.differences.length === 0,
        });
        return same.differences.length === 0;
      };

      await s.miss.loopDelay();
      for (const list of FLOOR_LISTS) {
        const name = `list miss ${list.name} (200 users, caches off)`;
        await bodiesMatch(name, s.floors.list, list.path);
        const target: HttpTarget = { name, method: 'GET', path: list.path, rotate };
        const pair = await interleave(
          side('product', s.miss, target),
          side('list floor', s.floors.list, target),
          run,
          backends,
        );
        pairs.push({ name, pair });
        budgets.push(
          cpuBudget(this.name, `GET ${list.path} ${name}`, 'list floor', pair, LIST_MAX[ctx.engine]),
        );
        layers.push({
          ...layerCheck(
            'stored list entries (+ read worker, statement shapes)',
            'product vs list floor',
            name,
            pair,
            'on: the product with caches off; off: the floor',
          ),
          engine: ctx.engine,
        });
      }

      const listLoop = await s.miss.loopDelay();
      budgets.push(
        latencyBudget(this.name, 'event loop during the list misses', 'p99', listLoop.p99_ms, LOOP_P99_MS),
      );

      {
        const name = 'authenticated trivial route';
        await bodiesMatch(name, s.floors.auth, '/api/users/me');
        const target: HttpTarget = { name, method: 'GET', path: '/api/users/me', rotate };
        const pair = await interleave(
          side('product', s.product, target),
          side('auth floor', s.floors.auth, target),
          run,
          backends,
        );
        pairs.push({ name, pair });
        budgets.push(rpsBudget(this.name, `GET /api/users/me (${name})`, 'auth floor', pair, ME_MIN));
      }

      // Layers on the read rows, before the writes add rows.
      const listHit: HttpTarget = {
        name: 'list hit',
        method: 'GET',
        path: FLOOR_LISTS[0].path,
        headers: busy,
      };
      const me: HttpTarget = { name: 'me', method: 'GET', path: '/api/users/me', rotate };
      const missTasks: HttpTarget = { name: 'list miss', method: 'GET', path: FLOOR_LISTS[0].path, rotate };
      const readCache = { READ_CACHE_MB: '0' };
      layers.push(
        await layerPair(ctx, s, run, backends, {
          layer: 'read cache',
          switch: readCache,
          row: 'list hit (tasks, one user)',
          on: s.product,
          target: listHit,
        }),
        await layerPair(ctx, s, run, backends, {
          layer: 'read cache',
          switch: readCache,
          row: 'GET /api/users/me',
          on: s.product,
          target: me,
        }),
      );
      if (ctx.engine === 'sqlite') {
        layers.push(
          await layerPair(ctx, s, run, backends, {
            layer: 'read worker',
            switch: { SQLITE_READ_WORKER: 'false' },
            row: 'list miss tasks',
            on: s.miss,
            target: missTasks,
          }),
        );
      } else {
        layers.push(
          await layerPair(ctx, s, run, backends, {
            layer: 'named statements',
            switch: { PG_NAMED_STATEMENTS: 'false' },
            row: 'list miss tasks',
            on: s.miss,
            target: missTasks,
          }),
        );
      }

      {
        const name = 'durable task write';
        const target: HttpTarget = {
          name,
          method: 'POST',
          path: '/api/tasks/',
          headers: { ...busy, 'content-type': 'application/json' },
          body: TASK_BODY,
        };
        await s.product.loopDelay();
        const pair = await interleave(
          side('product', s.product, target),
          side('write floor', s.floors.write, target),
          run,
          backends,
        );
        const writeLoop = await s.product.loopDelay();
        budgets.push(
          latencyBudget(this.name, 'event loop during the writes', 'p99', writeLoop.p99_ms, LOOP_P99_MS),
        );
        pairs.push({ name, pair });
        budgets.push(
          cpuBudget(this.name, `POST /api/tasks/ (${name})`, 'write floor', pair, WRITE_MAX[ctx.engine]),
        );
        if (ctx.engine === 'sqlite') {
          layers.push(
            await layerPair(ctx, s, run, backends, {
              layer: 'shared commits',
              switch: { SQLITE_SHARED_COMMITS: 'false' },
              row: 'durable task write',
              on: s.product,
              target,
            }),
          );
        }
      }
      for (const { name, pair } of pairs) {
        for (const a of [
          alarm(name, 'p99 ms', pair.product_median.p99_ms, pair.floor_median.p99_ms),
          alarm(name, 'CPU ms/req', pair.product_median.cpu_ms_per_req, pair.floor_median.cpu_ms_per_req),
        ])
          if (a) notes.push(a);
      }
    } finally {
      await backends?.close();
      await stopServers(s);
    }
    return { budgets, layers, notes };
  },
};
