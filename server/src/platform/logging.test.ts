import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { expect, it, vi } from 'vitest';
import { TEST_DB } from '../../test/helpers.ts';
import { lazyChildLogger } from './logging.ts';

// Engine-independent: runs in the SQLite project only.
it.skipIf(TEST_DB === 'postgres')(
  "a request's logger makes its pino child only when it writes a line, and the line carries the request id",
  async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const root = pino({ level: 'warn' }, sink);
    const app = Fastify({ loggerInstance: root, childLoggerFactory: lazyChildLogger });
    const childSpy = vi.spyOn(root, 'child');
    app.get('/quiet', async (req) => {
      req.log.info('not at this level');
      return { ok: true };
    });
    app.get('/loud', async (req) => {
      req.log.warn({ detail: 'x' }, 'something to see');
      expect(req.log.level).toBe('warn');
      return { ok: true };
    });
    await app.ready();
    expect((await app.inject({ url: '/quiet', headers: { 'x-request-id': 'q-1' } })).statusCode).toBe(200);
    expect(childSpy).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    expect((await app.inject({ url: '/loud' })).statusCode).toBe(200);
    expect(childSpy).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'something to see', detail: 'x', reqId: expect.any(String) }),
    ]);
    await app.close();
  },
);
