import { type APIRequestContext, type APIResponse, expect, test } from '@playwright/test';
import { citationUrl } from '../../contract/src/citations.ts';
import { apiToken, bearer, createUserViaApi, DEMO, loginViaApi, newUserData } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

// Issue 20 §3: a citation chip opens the record it names. Each link here is what `citationUrl` gives
// for the record (what the server puts in a citation), or a chip clicked in a real AI output.

const NOT_AVAILABLE = 'This record is not available';

async function created<T>(res: Promise<APIResponse>, status = 201): Promise<T> {
  const r = await res;
  expect(r.status(), await r.text()).toBe(status);
  return (await r.json()) as T;
}

interface Goal {
  id: string;
  title: string;
  kpis: { id: string }[];
}

async function createGoal(request: APIRequestContext, token: string, title: string) {
  return created<Goal>(
    request.post('/api/strategic-goals', {
      headers: bearer(token),
      data: {
        title,
        due_date: '2031-06-30',
        kpis: [{ name: `${title} KPI`, current_value: 1, target_value: 4 }],
      },
    }),
  );
}

test.describe('citation links', () => {
  test('as the ceo, each kind of citation opens its record; a chip of generated advice opens its goal', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const tag = Date.now().toString(36);
    const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    const api = page.request;
    const headers = bearer(token);

    const goal = await createGoal(api, token, `Citation goal ${tag}`);
    const note = await created<{ id: string }>(
      api.post('/api/journals/', { headers, data: { content: `Citation note ${tag}` } }),
    );
    const contact = await created<{ id: string; name: string }>(
      api.post('/api/contacts/', { headers, data: { name: `Citation Contact ${tag}`, role: 'Advisor' } }),
    );
    const fileName = `citation-${tag}.txt`;
    const [file] = await created<{ id: string }[]>(
      api.post('/api/files', {
        headers,
        multipart: {
          files: { name: fileName, mimeType: 'text/plain', buffer: Buffer.from(`Plan for ${tag}`) },
        },
      }),
    );

    let runId = '';
    await test.step('a Goal chip under generated advice opens that goal in its dialog', async () => {
      const started = await created<{ id: string }>(
        api.post('/api/flow/run/strategic_flow', { headers, data: {} }),
        202,
      );
      runId = started.id;
      let adviceId: string | null = null;
      await expect
        .poll(
          async () => {
            const run = (await (await api.get(`/api/flow/runs/${runId}`, { headers })).json()) as {
              status: string;
              advice_id: string | null;
            };
            adviceId = run.advice_id;
            return run.status;
          },
          { timeout: 30_000 },
        )
        .toBe('completed');
      expect(adviceId).toBeTruthy();

      await page.goto(citationUrl('advice', adviceId as unknown as string));
      const item = page.locator('[role="article"][aria-current="true"]');
      await expect(item).toHaveCount(1);
      const chip = item
        .getByRole('list', { name: 'Sources' })
        .getByRole('link', { name: /^Goal: / })
        .first();
      const label = (await chip.textContent()) ?? '';
      await chip.click();
      await expect(page).toHaveURL(/\/app\/strategy$/);
      // The chip opens the goal to read (issue 47 item 4); its Edit opens the goal dialog.
      const title = label.replace(/^Goal: /, '');
      const read = page.getByRole('dialog', { name: title });
      await expect(read.getByRole('textbox')).toHaveCount(0);
      await read.getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit goal' });
      await expect(dialog.getByLabel('Title')).toHaveValue(title);
    });

    await test.step('goal and KPI links open the goal to read', async () => {
      for (const url of [citationUrl('goal', goal.id), citationUrl('kpi', goal.kpis[0].id)]) {
        await page.goto(url);
        const read = page.getByRole('dialog', { name: goal.title });
        await expect(read.getByText(`${goal.title} KPI`)).toBeVisible();
        await expect(read.getByRole('textbox')).toHaveCount(0);
      }
      await page.getByRole('dialog', { name: goal.title }).getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit goal' });
      await expect(dialog.getByLabel('Title')).toHaveValue(goal.title);
    });

    await test.step('a note link opens the entry to read; Edit opens the editor', async () => {
      await page.goto(citationUrl('note', note.id));
      const read = page.getByRole('dialog', { name: /^Note of / });
      await expect(read.getByText(`Citation note ${tag}`)).toBeVisible();
      await read.getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit note entry' });
      await expect(dialog.getByRole('textbox', { name: /content/i })).toHaveValue(`Citation note ${tag}`);
    });

    await test.step('a task link opens the task to read; Edit opens the form', async () => {
      const task = await created<{ id: string; title: string }>(
        api.post('/api/tasks/', { headers, data: { title: `Citation task ${tag}`, due_date: '2031-05-02' } }),
      );
      await page.goto(citationUrl('task', task.id));
      const read = page.getByRole('dialog', { name: task.title });
      await expect(read.getByRole('textbox')).toHaveCount(0);
      await read.getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit task' });
      await expect(dialog.getByLabel('Title')).toHaveValue(task.title);
    });

    await test.step('a contact link opens the contact', async () => {
      await page.goto(citationUrl('contact', contact.id));
      await expect(page.getByRole('dialog', { name: new RegExp(contact.name) })).toBeVisible();
    });

    await test.step("a file link opens the file's preview", async () => {
      await page.goto(citationUrl('file', file.id));
      const dialog = page.getByRole('dialog', { name: fileName });
      await expect(dialog.getByRole('region', { name: `Content of ${fileName}` })).toHaveText(
        `Plan for ${tag}`,
      );
    });

    await test.step("a run link opens the run's page", async () => {
      await page.goto(citationUrl('run', runId));
      await expect(page).toHaveURL(new RegExp(`/app/runs/flow/${runId}$`));
      await expect(page.getByTestId('run-status')).toHaveText('Flow: Completed');
    });
  });

  test('a link to a record of another organization shows the error, not the record', async ({ page }) => {
    const outsider = newUserData('citation-outsider', 'Otto');
    await createUserViaApi(page.request, outsider, 'ceo');
    const theirs = await apiToken(page.request, outsider.email, outsider.password);
    const goal = await createGoal(page.request, theirs, `Otto's secret goal ${Date.now().toString(36)}`);
    const note = await created<{ id: string }>(
      page.request.post('/api/journals/', { headers: bearer(theirs), data: { content: 'Otto private' } }),
    );

    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    for (const url of [citationUrl('goal', goal.id), citationUrl('note', note.id)]) {
      await page.goto(url);
      await expect(toast(page, NOT_AVAILABLE)).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await expect(page.getByText(goal.title)).toHaveCount(0);
    await expect(page.getByText('Otto private')).toHaveCount(0);
  });
});
