import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

// The model call is captured: the offline engine reads `providerOptions.offline.data`, not the prompt.
const calls: { providerOptions?: { offline?: { data?: unknown } } }[] = [];
vi.mock('ai', async (importOriginal) => {
  const real = await importOriginal<typeof import('ai')>();
  return {
    ...real,
    generateText: vi.fn(async (args: (typeof calls)[number]) => {
      calls.push(args);
      return { text: '# Close the DACH gap\n\nAct on the review.' };
    }),
  };
});

const { generateStrategicAdvice } = await import('./advice-generation.service.ts');

apiSuite('the advice step builds on the review step (offline engine data)', () => {
  let t: TestApp;
  let ceo: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  it("passes the review step's output with the snapshot", async () => {
    const advice = await generateStrategicAdvice(t.ctx, ceo.id, {
      meter: { userId: ceo.id, organizationId: null, feature: 'advice' },
      earlier: [
        { name: 'Review goals and KPIs', output: 'The DACH pipeline gap is the main risk.' },
        { name: 'Empty step', output: '  ' },
      ],
    });
    expect(advice.advice_title).toBe('Close the DACH gap');
    const data = calls.at(-1)?.providerOptions?.offline?.data as {
      earlier_steps: { name: string; output: string }[];
      goals: unknown[];
    };
    expect(data.earlier_steps).toEqual([
      { name: 'Review goals and KPIs', output: 'The DACH pipeline gap is the main risk.' },
    ]);
    expect(Array.isArray(data.goals)).toBe(true);
  });
});
