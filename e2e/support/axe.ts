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
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and fails on any serious or
 * critical violation. The full result is attached to the test report; minor and moderate findings
 * are listed there without failing the test.
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  testInfo: TestInfo,
  opts: AxeOptions = {},
): Promise<void> {
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
