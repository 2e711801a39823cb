import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { TEST_DB } from '../../test/helpers.ts';
import { startServerProcess } from '../../test/server-process.ts';

// What an operator sees on the console of a real server process. The output does not depend on the
// engine, so this runs in the SQLite project only.
it.skipIf(TEST_DB === 'postgres')(
  'prints the banner whole, with no log line inside it, and logs stream URLs without their ?token=',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cc-log-'));
    const server = await startServerProcess({
      LOG_LEVEL: 'info',
      DATABASE_URL: `file:${path.join(dir, 'app.db')}`,
      DEMO_SEED: '1',
      DEMO_PASSWORD: 'demo-password-1',
    });
    try {
      const secret = 'secret-ticket-value-123';
      const res = await fetch(`${server.url}/api/conversations/c1/events?token=${secret}&x=1`);
      expect(res.status).toBe(401);
      await res.text();
      // The request's log lines are written by now (pino writes each line as it is logged).
      await new Promise((r) => setTimeout(r, 300));
      const out = server.output();
      expect(out).toContain('/api/conversations/c1/events?token=[REDACTED]&x=1');
      expect(out).not.toContain(secret);
      // Written through the request's own logger: the line names the request.
      expect(out.split('\n').find((l) => l.includes('[REDACTED]'))).toMatch(/"reqId":"[\w-]+"/);
      // The banner: from its first line to the last sign-in line, nothing but banner lines.
      const lines = out.split('\n');
      const first = lines.findIndex((l) => l.includes('Command Centre is running at'));
      const last = lines.findIndex((l) => l.includes('leo@demo.example'));
      expect(first).toBeGreaterThanOrEqual(0);
      expect(last).toBeGreaterThan(first);
      expect(lines.slice(first, last + 1).filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
      expect(out).not.toContain('Server listening');
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  30_000,
);
