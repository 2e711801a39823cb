import type { BudgetCheck, LayerCheck } from '../budgets.ts';
import type { BenchSettings, Engine } from '../config.ts';
import type { HttpResult } from '../http.ts';
import type { LoopDelay } from '../server.ts';

export interface BundleFile {
  file: string;
  raw_bytes: number;
  gzip_bytes: number;
  /** Why the file counts: entry script, modulepreload, route chunk, or seen loading in Chromium. */
  reason: string;
}

export interface BundleResult {
  page: string;
  /** How the file list was found: 'manifest' (entry + preloads + route chunk), 'entry+preloads', 'chromium'. */
  method: string;
  files: BundleFile[];
  total_gzip_bytes: number;
  budget_gzip_bytes: number;
  within_budget: boolean;
  note?: string;
}

export interface BenchContext {
  baseURL: string;
  settings: BenchSettings;
  /** The built SPA the server serves (a snapshot of web/dist), or null when there is no web build. */
  webDist: string | null;
  /** The engine of this pass (run.ts runs the engine-specific groups once per engine). */
  engine: Engine;
  /** The server's DATABASE_URL: a group may seed it directly (seed-db.ts) while the server runs. */
  databaseUrl: string;
  /** The control route (bare JSON, no auth) measured first in this run; ratios are relative to it. */
  control: HttpResult;
  /** The server's event-loop delay since the previous call (the first call only starts the count). */
  loopDelay: () => Promise<LoopDelay>;
  /** An access token for a demo account (cached per e-mail). */
  token: (email: string) => Promise<string>;
}

/** One page's Lighthouse figures (median of the runs), against the first-load goals. */
export interface LighthouseResult {
  page: string;
  runs: number;
  performance: number;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  meets_goals: boolean;
}

export interface GroupResult {
  /** Every budget the group checks, with its figure: the bench's one table (budgets.ts). */
  budgets?: BudgetCheck[];
  /** The on/off pairs of the speed layers this group measured (issue 48 §2). */
  layers?: LayerCheck[];
  http?: HttpResult[];
  bundles?: BundleResult[];
  lighthouse?: LighthouseResult[];
  notes?: string[];
}

/** One file per group under src/scenarios/, listed in src/scenarios/index.ts. */
export interface ScenarioGroup {
  name: string;
  description: string;
  /** Nothing engine-specific (the web build, the browser): measured once, not per engine. */
  once?: boolean;
  run: (ctx: BenchContext) => Promise<GroupResult>;
}
