import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { OfflineLanguageModel, splitTokens } from './engine.ts';
import { extractFacts } from './handlers/memory-extraction.ts';
import { OFFLINE_NOTICE } from './types.ts';

const searchTool = (calls: unknown[]) =>
  tool({
    description: 'search',
    inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } } }),
    execute: async (input) => {
      calls.push(input);
      return {
        query: input.query,
        hits: [
          { type: 'task', id: 't1', title: 'Prepare the board deck', snippet: 'slides for the Q4 board' },
        ],
      };
    },
  });

describe('offline engine', () => {
  it('calls the offered grounding tool first, then answers from its result naming the sources', async () => {
    const calls: unknown[] = [];
    const res = await generateText({
      model: new OfflineLanguageModel('gpt-5-chat'),
      prompt: 'What is the status of the board deck?',
      tools: { internal_search: searchTool(calls) },
      stopWhen: stepCountIs(4),
    });
    expect(calls).toEqual([{ query: 'board deck' }]);
    expect(res.steps).toHaveLength(2);
    expect(res.steps[0].toolCalls[0].toolName).toBe('internal_search');
    expect(res.text.split('\n')[0]).toBe(OFFLINE_NOTICE);
    expect(res.text).toContain('Task “Prepare the board deck”');
    expect(res.text).toContain('Sources: Task “Prepare the board deck”');
    expect(res.text).not.toMatch(/I am gpt-5|as gpt-5/i);
    expect(res.response.modelId).toBe('offline');
  });

  it('is deterministic and streams word by word with usage', async () => {
    const run = async () => {
      const r = streamText({
        model: new OfflineLanguageModel('gpt-5', { tokenDelayMs: 1 }),
        prompt: 'Hello there, summarise my week',
      });
      const deltas: string[] = [];
      for await (const d of r.textStream) deltas.push(d);
      return { deltas, usage: await r.totalUsage };
    };
    const a = await run();
    const b = await run();
    expect(a.deltas.length).toBeGreaterThan(10);
    expect(a.deltas).toEqual(b.deltas);
    expect(a.deltas.join('')).toContain('Internal Search');
    expect(a.usage.outputTokens).toBe(a.deltas.length);
    expect(a.usage.inputTokens).toBeGreaterThan(0);
  });

  it('honours the abort signal mid-stream', async () => {
    const controller = new AbortController();
    const r = streamText({
      model: new OfflineLanguageModel('gpt-5', { tokenDelayMs: 20 }),
      prompt: 'Hello',
      abortSignal: controller.signal,
    });
    const deltas: string[] = [];
    for await (const d of r.textStream) {
      deltas.push(d);
      if (deltas.length === 2) controller.abort();
    }
    expect(deltas.length).toBeLessThan(6);
  });

  it('routes providerOptions.offline.task to its handler', async () => {
    const res = await generateText({
      model: new OfflineLanguageModel(),
      prompt: 'x',
      providerOptions: {
        offline: {
          task: 'memory-extraction',
          data: { content: "I'm the CFO of Acme. What time is it? I prefer short answers." },
        },
      },
    });
    expect(JSON.parse(res.text)).toEqual({ facts: ["I'm the CFO of Acme.", 'I prefer short answers.'] });
  });

  it('splits text into deltas that join back exactly', () => {
    const text = 'a  b\n\n- c\td ';
    expect(splitTokens(text).join('')).toBe(text);
  });

  it('extracts first-person durable statements only', () => {
    expect(
      extractFacts('My company is Acme Corp\nCan you help me? I work from Lisbon! The sky is blue.'),
    ).toEqual(['My company is Acme Corp.', 'I work from Lisbon!']);
  });
});

describe('offline chat handler', () => {
  it('uses memories listed in the system prompt when no data is passed', async () => {
    const res = await generateText({
      model: new OfflineLanguageModel(),
      system:
        'Be brief.\n\nWhat you remember about the user (from earlier conversations):\n- I lead the Lisbon office.\n\nEnd.',
      prompt: 'Where do I work?',
    });
    expect(res.text).toContain('- I lead the Lisbon office.');
  });
});
