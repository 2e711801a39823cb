import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import lighthouse, { type Result } from 'lighthouse';
import { freePort } from '../own-server.ts';
import { type QuietWait, quietNote, waitForQuietMachine } from '../quiet-client.ts';
import type { LighthouseResult, ScenarioGroup } from './types.ts';

/** The first-load goals (issue 17 §5), Lighthouse's mobile preset. */
export const LIGHTHOUSE_GOALS = { performance: 90, lcp_ms: 2500, tbt_ms: 200, cls: 0.1 };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
/** A folder to keep each run's full report in (JSON), to see where the time goes. */
const REPORT_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;

const ALL_PAGES: { path: string; signedIn: boolean }[] = [
  { path: '/', signedIn: false },
  { path: '/login', signedIn: false },
  { path: '/app/ceodashboard', signedIn: true },
];
/** BENCH_LIGHTHOUSE_PAGES (comma-separated paths) measures only those pages, to compare builds. */
const ONLY = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').map((p) => p.trim());
const PAGES = ONLY ? ALL_PAGES.filter((p) => ONLY.includes(p.path)) : ALL_PAGES;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Lighthouse (mobile preset, simulated throttling) on the public pages and the signed-in dashboard,
 * in Debian's Chromium; the median of BENCH_LIGHTHOUSE_RUNS runs (3) per page. The signed-in page
 * gets the demo CEO's token in localStorage first, and Lighthouse is told to keep the storage — and so
 * the HTTP cache: its figures are a returning visitor's (the public pages are measured cold).
 */
export const lighthouseGroup: ScenarioGroup = {
  name: 'lighthouse',
  once: true,
  description: `Lighthouse mobile preset on ${PAGES.map((p) => p.path).join(', ')} (median of ${RUNS})`,
  async run(ctx) {
    const port = await freePort();
    // A persistent context is the browser's default profile: the tabs Lighthouse opens share its storage.
    const profile = mkdtempSync(path.join(tmpdir(), 'cc-lighthouse-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
    });
    const results: LighthouseResult[] = [];
    const quiet: QuietWait[] = [];
    let lastTrace: unknown;
    const token = await ctx.token('ceo@demo.example');
    // The public pages' runs reset the origin's storage: the token goes in again before each signed-in run.
    const signIn = async () => {
      const page = await browser.newPage();
      await page.goto(`${ctx.baseURL}/about`);
      await page.evaluate((t) => localStorage.setItem('authToken', t), token);
      await page.close();
    };
    // Lighthouse now and then loses the trace of a load (NO_NAVSTART), twice in a row on a busy machine:
    // such a run is done again, up to three times.
    const audit = async (p: (typeof PAGES)[number], retries = 3): Promise<Result> => {
      if (p.signedIn) await signIn();
      const out = await lighthouse(`${ctx.baseURL}${p.path}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        // The signed-in page needs the token set above; the public pages run as a new visitor.
        disableStorageReset: p.signedIn,
      });
      lastTrace = (out?.artifacts as { Trace?: unknown } | undefined)?.Trace;
      const lhr = out?.lhr;
      if (!lhr) throw new Error(`no Lighthouse result for ${p.path}`);
      if (lhr.runtimeError) {
        if (retries > 0) return audit(p, retries - 1);
        throw new Error(`${p.path}: ${lhr.runtimeError.message}`);
      }
      return lhr;
    };
    try {
      for (const p of PAGES) {
        const runs: { performance: number; lcp: number; tbt: number; cls: number; fcp: number }[] = [];
        for (let i = 0; i < RUNS; i++) {
          quiet.push(await waitForQuietMachine());
          const lhr = await audit(p);
          if (REPORT_DIR) {
            mkdirSync(REPORT_DIR, { recursive: true });
            const name = `${p.path.replace(/\W+/g, '_') || 'root'}-${i + 1}.json`;
            writeFileSync(path.join(REPORT_DIR, name), JSON.stringify(lhr));
            // The load's trace beside the report: DevTools' Performance panel, or bench/probes/trace-tasks.ts.
            if (lastTrace) {
              writeFileSync(
                path.join(REPORT_DIR, name.replace(/\.json$/, '.trace.json')),
                JSON.stringify(lastTrace),
              );
            }
          }
          const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
          runs.push({
            performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
            lcp: value('largest-contentful-paint'),
            tbt: value('total-blocking-time'),
            cls: value('cumulative-layout-shift'),
            fcp: value('first-contentful-paint'),
          });
          const final = lhr.finalDisplayedUrl;
          if (p.signedIn && !final.includes(p.path))
            throw new Error(`${p.path} ended at ${final}: not signed in`);
        }
        const r: LighthouseResult = {
          page: p.path,
          runs: runs.length,
          performance: median(runs.map((x) => x.performance)),
          fcp_ms: Math.round(median(runs.map((x) => x.fcp))),
          lcp_ms: Math.round(median(runs.map((x) => x.lcp))),
          tbt_ms: Math.round(median(runs.map((x) => x.tbt))),
          cls: Number(median(runs.map((x) => x.cls)).toFixed(3)),
          meets_goals: false,
        };
        r.meets_goals =
          r.performance >= LIGHTHOUSE_GOALS.performance &&
          r.lcp_ms <= LIGHTHOUSE_GOALS.lcp_ms &&
          r.tbt_ms <= LIGHTHOUSE_GOALS.tbt_ms &&
          r.cls <= LIGHTHOUSE_GOALS.cls;
        console.log(
          `  ${p.path}: performance ${r.performance}, FCP ${r.fcp_ms} ms, LCP ${r.lcp_ms} ms, TBT ${r.tbt_ms} ms, CLS ${r.cls}` +
            (r.meets_goals ? '' : '  (misses a goal)'),
        );
        results.push(r);
      }
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
    const misses = results.filter((r) => !r.meets_goals).map((r) => r.page);
    const slowest = quiet.reduce((a, b) => (b.waited_ms > a.waited_ms ? b : a), quiet[0]);
    return {
      lighthouse: results,
      notes: [
        ...(misses.length
          ? [
              `below the goals (performance >= 90, LCP <= 2.5 s, TBT <= 200 ms, CLS <= 0.1): ${misses.join(', ')}`,
            ]
          : []),
        ...(slowest ? [`before each run the ${quietNote(slowest)} at the longest`] : []),
      ],
    };
  },
};
