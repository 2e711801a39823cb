/**
 * CPU profile of one signed-in page load in Debian's Chromium (bench-only): starts the built server
 * with the demo workspace, puts the demo CEO's token in localStorage, loads PAGE (/app/ceodashboard)
 * and writes a .cpuprofile of the first WAIT_MS (5000) to OUT. CPU_SLOWDOWN (1) throttles the CPU.
 * Build the web app with `npx vite build --minify false` first to read function names.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { DEMO_PASSWORD } from '../src/config.ts';
import { startServer } from '../src/server.ts';

const PAGE = process.env.PAGE ?? '/app/ceodashboard';
const OUT = process.env.OUT ?? '/tmp/web.cpuprofile';
const WAIT_MS = Number(process.env.WAIT_MS ?? 5000);
/**
 * COLD_ROUNDS=n: n loads each in a new context (no HTTP or code cache), blocking time of each. WARM=1:
 * the n loads share one context after a first unmeasured load (a returning visitor, as the bench's
 * Lighthouse run of the signed-in page).
 */
const COLD_ROUNDS = Number(process.env.COLD_ROUNDS ?? 0);
const server = await startServer();
try {
  const res = await fetch(`${server.baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'ceo@demo.example', password: DEMO_PASSWORD }).toString(),
  });
  const { access_token } = (await res.json()) as { access_token: string };
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  if (COLD_ROUNDS > 0) {
    const blocking: number[] = [];
    const warm = process.env.WARM === '1';
    const shared = warm ? await browser.newContext({ viewport: { width: 412, height: 823 } }) : null;
    for (let i = warm ? -1 : 0; i < COLD_ROUNDS; i++) {
      const context = shared ?? (await browser.newContext({ viewport: { width: 412, height: 823 } }));
      if (!shared || i < 0)
        await context.addInitScript((t) => {
          localStorage.setItem('authToken', t);
          const w = window as unknown as { __lt: number[][] };
          w.__lt = [];
          new PerformanceObserver((l) => {
            for (const e of l.getEntries()) w.__lt.push([Math.round(e.startTime), Math.round(e.duration)]);
          }).observe({ type: 'longtask', buffered: true });
        }, access_token);
      const p = await context.newPage();
      const cdp = await context.newCDPSession(p);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.CPU_SLOWDOWN ?? 4) });
      // TRACE=path: a Chromium trace of the first cold load (tasks with their parse/compile/style/layout).
      const trace = i === 0 && process.env.TRACE;
      if (trace) {
        await browser.startTracing(p, {
          path: trace,
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'disabled-by-default-v8.cpu_profiler',
            'v8',
            'blink',
            'loading',
            'toplevel',
          ],
        });
      }
      await p.goto(`${server.baseURL}${PAGE}`);
      await p.waitForTimeout(WAIT_MS);
      if (trace) await browser.stopTracing();
      const lts = await p.evaluate(() => (window as unknown as { __lt: number[][] }).__lt);
      if (i < 0) {
        await p.close();
        continue;
      }
      blocking.push(Math.round(lts.reduce((a, [, d]) => a + Math.max(0, d - 50), 0)));
      console.log(`  long tasks (start:ms): ${lts.map(([s, d]) => `${s}:${d}`).join(' ')}`);
      if (shared) await p.close();
      else await context.close();
    }
    const sorted = [...blocking].sort((a, b) => a - b);
    console.log(
      `blocking per cold load (ms): ${blocking.join(' ')}; median ${sorted[Math.floor(sorted.length / 2)]}`,
    );
  }
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
  await page.addInitScript(() => {
    const w = window as unknown as { __lt: number[][] };
    w.__lt = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__lt.push([Math.round(e.startTime), Math.round(e.duration)]);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${server.baseURL}/about`);
  await page.evaluate((t) => localStorage.setItem('authToken', t), access_token);
  for (let round = 0; round < (COLD_ROUNDS > 0 ? 0 : 2); round++) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.CPU_SLOWDOWN ?? 1) });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const t0 = Date.now();
    await page.goto(`${server.baseURL}${PAGE}`);
    await page.waitForTimeout(WAIT_MS);
    const { profile } = await cdp.send('Profiler.stop');
    const lt = await page.evaluate(() => performance.getEntriesByType('navigation')[0].toJSON());
    console.log(
      `round ${round}: ${Date.now() - t0} ms, domInteractive ${Math.round(lt.domInteractive)}, load ${Math.round(lt.loadEventEnd)}`,
    );
    const lts = await page.evaluate(() => (window as unknown as { __lt: number[][] }).__lt);
    const tbt = lts.reduce((a, [, d]) => a + Math.max(0, d - 50), 0);
    console.log(
      `  long tasks (start, ms): ${lts.map(([s, d]) => `${s}:${d}`).join(' ')}; blocking ${tbt} ms`,
    );
    writeFileSync(OUT.replace('.cpuprofile', `-${round}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  }
  await browser.close();
} finally {
  await server.stop();
}
