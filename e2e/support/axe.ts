import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

export interface AxeOptions {
  /** CSS selectors to leave out of the scan (use sparingly, and say why at the call site). */
  exclude?: string[];
  /** Rule ids to disable (same). */
  disableRules?: string[];
}

/**
 * Waits (up to 3 s) for the page's finite animations and transitions to end. A toast fading in or out
 * has blended colours mid-way, and axe would measure the contrast of that passing frame (seen: a
 * success toast's text at about half opacity); endless ones (spinners) are not waited for.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      null,
      { timeout: 3000 },
    )
    .catch(() => {
      // Still moving after 3 s: scan what is there (a real violation shows in any frame).
    });
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and fails on any serious or
 * critical violation. The full result is attached to the test report; minor and moderate findings
 * are listed there without failing the test.
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  testInfo: TestInfo,
  opts: AxeOptions = {},
): Promise<void> {
  await settleAnimations(page);
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  for (const sel of opts.exclude ?? []) builder = builder.exclude(sel);
  if (opts.disableRules?.length) builder = builder.disableRules(opts.disableRules);
  const results = await builder.analyze();
  const url = new URL(page.url()).pathname;
  await testInfo.attach(`axe ${url}`, {
    body: JSON.stringify({ url: page.url(), violations: results.violations }, null, 2),
    contentType: 'application/json',
  });
  const blocking = results.violations.filter((v) => BLOCKING.has(v.impact ?? ''));
  const report = blocking
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map((n) => `      ${n.target.join(' ')}\n        ${n.failureSummary?.split('\n').join(' ') ?? ''}`)
        .join('\n');
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} node(s))\n${nodes}`;
    })
    .join('\n');
  expect(
    blocking.map((v) => `${v.impact} ${v.id}`),
    `serious accessibility violations on ${url}:\n${report}`,
  ).toEqual([]);
}
