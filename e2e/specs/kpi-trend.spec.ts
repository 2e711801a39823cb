import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { bearer, DEMO, loginViaApi } from '../support/auth.ts';

/** The UTC date `days` days from today (the server dates check-ins in UTC). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.describe('KPI history', () => {
  test('the Strategy Center draws a KPI trend with one point per check-in; the goal dialog shows its tasks', async ({
    page,
  }, testInfo) => {
    const title = `E2E trend ${Date.now().toString(36)}`;
    const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    const api = page.request;

    // A goal whose KPI starts at 10 today, back-filled with three earlier check-ins, then checked in
    // again today (which replaces today's first one): four points, rising 5 → 8 → 12 → 15.
    const created = await api.post('/api/strategic-goals', {
      headers: bearer(token),
      data: {
        title,
        due_date: '2031-06-30',
        kpis: [{ name: 'ARR', current_value: 10, target_value: 20, unit: 'k€' }],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const goal = (await created.json()) as { id: string; kpis: { id: string }[] };
    const checkins = `/api/strategic-goals/${goal.id}/kpis/${goal.kpis[0].id}/checkins`;
    for (const [value, date] of [
      [5, day(-21)],
      [8, day(-14)],
      [12, day(-7)],
      [15, undefined],
    ] as const) {
      const res = await api.post(checkins, { headers: bearer(token), data: { value, date } });
      expect(res.status(), await res.text()).toBe(201);
    }
    const task = await api.post('/api/tasks', {
      headers: bearer(token),
      data: { title: `${title} task`, goal_id: goal.id },
    });
    expect(task.status(), await task.text()).toBe(201);

    await page.goto('/app/strategy');
    await page.getByLabel('Search goals').fill(title);
    const card = page.getByRole('article', { name: title });

    await test.step('the card shows the current value against the target and the trend', async () => {
      await expect(card).toContainText('15 / 20 k€ · 75%');
      const figure = card.getByRole('figure', { name: 'Trend of ARR' });
      await expect(figure).toHaveAttribute('data-points', '4');
      const dots = figure.locator('.kpi-trend-dot');
      await expect(dots).toHaveCount(4);
      await expect(figure.locator('.kpi-trend-line')).toHaveAttribute('d', /^M/);
      // The rendered points follow the values: each higher value sits higher (SVG y grows down),
      // and the points run left to right in date order.
      const points = await dots.evaluateAll((els) =>
        els.map((e) => ({ x: Number(e.getAttribute('cx')), y: Number(e.getAttribute('cy')) })),
      );
      for (let i = 1; i < points.length; i++) {
        expect(points[i].x).toBeGreaterThan(points[i - 1].x);
        expect(points[i].y).toBeLessThan(points[i - 1].y);
      }
      // A drawn chart, not an empty box. Polled: once in CI (stop 41) the capture came before the
      // browser had painted the just-inserted chart (a 148x56 image of the card's background alone),
      // though its dots were already in the DOM.
      let shot: Buffer = Buffer.alloc(0);
      await expect
        .poll(async () => {
          shot = await figure.screenshot();
          return shot.byteLength;
        })
        .toBeGreaterThan(500);
      await testInfo.attach('kpi-trend.png', { body: shot, contentType: 'image/png' });
      await expect(card.getByText('Stale')).toHaveCount(0);
      // The target is a labelled line; the forecast (the API's linear trend) a dashed line to the due date.
      await expect(figure).toContainText('Target 20 k€');
      await expect(figure.locator('.kpi-trend-forecast')).toHaveAttribute('stroke-dasharray', /\d/);
      await expect(figure.locator('.kpi-trend-axis-end')).toContainText('Due');
      // A point's date and value on hover and on keyboard focus.
      await figure.locator('.kpi-trend-dot').nth(1).hover();
      await expect(figure.locator('.kpi-trend-tooltip')).toContainText(': 8 k€');
      await figure.getByLabel(/: 15 k€$/).focus();
      await expect(figure.locator('.kpi-trend-tooltip')).toContainText(': 15 k€');
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('the goal dialog shows the trend and the linked open task', async () => {
      await page.getByRole('button', { name: `Edit ${title}` }).click();
      const dialog = page.getByRole('dialog');
      await expect(
        dialog.getByRole('figure', { name: 'Trend of ARR' }).locator('.kpi-trend-dot'),
      ).toHaveCount(4);
      const tasks = dialog.getByRole('region', { name: 'Tasks of this goal' });
      await expect(tasks.getByRole('link', { name: `${title} task` })).toBeVisible();
      await expect(tasks).toContainText('No task done in the last 14 days.');
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('a single check-in is a labelled point, with no line to extend', async () => {
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
      const single = await api.post('/api/strategic-goals', {
        headers: bearer(token),
        data: {
          title: `${title} single`,
          due_date: '2031-06-30',
          kpis: [{ name: 'NPS', current_value: 42, target_value: 60 }],
        },
      });
      expect(single.status(), await single.text()).toBe(201);
      await page.getByLabel('Search goals').fill(`${title} single`);
      const figure = page
        .getByRole('article', { name: `${title} single` })
        .getByRole('figure', { name: 'Trend of NPS' });
      await expect(figure.locator('.kpi-trend-dot')).toHaveCount(1);
      await expect(figure.locator('.kpi-trend-point-label')).toContainText('42 on');
      await expect(figure.locator('.kpi-trend-forecast')).toHaveCount(0);
      await expect(figure.locator('.kpi-trend-line')).toHaveCount(0);
    });
  });
});
