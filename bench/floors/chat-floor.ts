/**
 * The chat floor (issue 48 §1): a minimal SSE proxy of the same mock model stream. `POST /chat` with
 * `{"message": "…"}` makes one streaming request to the model (MODEL_URL, OpenAI-compatible) and
 * writes each content delta it reads back as an SSE frame (`event: delta`) on its own response; the
 * stream ends with the model's. No session, conversation, memory, ledger or metering: what any chat
 * server must do at least, against which a product turn's first token and CPU are held.
 */
import Fastify from 'fastify';

const MODEL_URL = process.env.MODEL_URL ?? '';
const PORT = Number(process.env.PORT);

/** The content of each `data:` line of an OpenAI-compatible stream chunk, in order. */
function contents(block: string): string[] {
  const out: string[] = [];
  for (const line of block.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const text = JSON.parse(line.slice(6))?.choices?.[0]?.delta?.content;
    if (typeof text === 'string' && text) out.push(text);
  }
  return out;
}

async function main() {
  if (!MODEL_URL || !PORT) throw new Error('the chat floor needs PORT and MODEL_URL');
  const app = Fastify();
  app.post('/chat', async (req, reply) => {
    const message = (req.body as { message?: unknown } | null)?.message;
    if (typeof message !== 'string' || !message)
      return reply.code(422).send({ detail: 'message is required' });
    const upstream = await fetch(`${MODEL_URL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-5-chat',
        stream: true,
        messages: [{ role: 'user', content: message }],
      }),
    });
    if (!upstream.ok || !upstream.body) return reply.code(502).send({ detail: `model: ${upstream.status}` });
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = upstream.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        for (const text of contents(buffer.slice(0, end)))
          reply.raw.write(`event: delta\ndata: ${JSON.stringify({ text })}\n\n`);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
    reply.raw.end();
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port: PORT, host: '127.0.0.1' });
}

void main();
