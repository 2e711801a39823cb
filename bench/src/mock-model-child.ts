/**
 * The mock OpenAI-compatible model in a process of its own (bench/src/mock-model-process.ts starts
 * it): a model is another machine in production, so its receipt of a request must not wait on the
 * bench client's event loop. Answers IPC messages from the parent; times are absolute
 * (performance.timeOrigin + now), so the parent can compare them with its own clock.
 */
import { startMockOpenAI } from '../../server/test/mock-openai.ts';

const abs = (t: number) => performance.timeOrigin + t;

async function main() {
  const mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
  process.on('message', (msg: { id: number; op: string; steps?: unknown[]; marker?: string }) => {
    if (msg.op === 'script') {
      mock.script(...(msg.steps as Parameters<typeof mock.script>));
      process.send?.({ id: msg.id });
    } else if (msg.op === 'find') {
      const r = mock.chatRequests().find((q) => JSON.stringify(q.body).includes(msg.marker as string));
      process.send?.({
        id: msg.id,
        found: r ? { receivedAt: abs(r.receivedAt), contentSentAt: r.contentSentAt.map(abs) } : null,
      });
    } else if (msg.op === 'close') {
      void mock.close().then(() => process.exit(0));
    }
  });
  process.send?.({ ready: mock.url });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
