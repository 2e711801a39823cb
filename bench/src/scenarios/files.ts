import { randomBytes } from 'node:crypto';
import type { ScenarioGroup } from './types.ts';

const CEO = 'ceo@demo.example';
const FILE_MB = 50;

interface Timing {
  ms: number;
  mb_per_s: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

function timing(bytes: number, ms: number): Timing {
  return { ms: Math.round(ms), mb_per_s: Math.round((bytes / 1024 / 1024 / (ms / 1000)) * 10) / 10 };
}

/**
 * Upload and download throughput of one 50 MB file over loopback, sequential (one transfer at a time
 * is what a person does; the figure is disk + multipart parsing + hashing, not concurrency). The bench
 * server runs with MAX_UPLOAD_MB above 50 (bench/src/server.ts).
 */
export const files: ScenarioGroup = {
  name: 'files',
  description: `POST /api/files and GET /api/files/{id}/download with a ${FILE_MB} MB file (as the demo ceo)`,
  async run(ctx) {
    const auth = { Authorization: `Bearer ${await ctx.token(CEO)}` };
    // Random bytes: nothing compresses, nothing is sniffed as text (no extraction on the hot path).
    const payload = randomBytes(FILE_MB * 1024 * 1024);
    const runs = Math.max(1, ctx.settings.runs);
    const uploads: Timing[] = [];
    const downloads: Timing[] = [];
    const ids: string[] = [];
    try {
      for (let i = 0; i < runs + 1; i++) {
        const form = new FormData();
        form.append('files', new Blob([payload], { type: 'application/octet-stream' }), `bench-${i}.bin`);
        const t0 = performance.now();
        const res = await fetch(`${ctx.baseURL}/api/files`, { method: 'POST', headers: auth, body: form });
        const body = (await res.json()) as { id: string; size: number }[] | { detail: string };
        const ms = performance.now() - t0;
        if (res.status !== 201 || !Array.isArray(body)) {
          throw new Error(`upload answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
        }
        if (body[0].size !== payload.length)
          throw new Error(`stored ${body[0].size} bytes, sent ${payload.length}`);
        ids.push(body[0].id);
        if (i > 0) uploads.push(timing(payload.length, ms)); // the first run warms up
      }
      for (let i = 0; i < runs + 1; i++) {
        const t0 = performance.now();
        const res = await fetch(`${ctx.baseURL}/api/files/${ids[0]}/download`, { headers: auth });
        if (res.status !== 200 || !res.body) throw new Error(`download answered ${res.status}`);
        let received = 0;
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          received += value.length;
        }
        const ms = performance.now() - t0;
        if (received !== payload.length) throw new Error(`downloaded ${received} bytes of ${payload.length}`);
        if (i > 0) downloads.push(timing(received, ms));
      }
    } finally {
      for (const id of ids) {
        await fetch(`${ctx.baseURL}/api/files/${id}`, { method: 'DELETE', headers: auth }).catch(
          () => undefined,
        );
      }
    }
    const up = median(uploads.map((u) => u.mb_per_s));
    const down = median(downloads.map((d) => d.mb_per_s));
    return {
      notes: [
        `upload of ${FILE_MB} MB: median ${up} MB/s (${uploads.map((u) => `${u.ms} ms`).join(', ')})`,
        `download of ${FILE_MB} MB: median ${down} MB/s (${downloads.map((d) => `${d.ms} ms`).join(', ')})`,
      ],
    };
  },
};
