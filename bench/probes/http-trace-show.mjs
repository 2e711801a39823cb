/**
 * Reads the files http-trace.mjs wrote and prints, for the last burst of 50 chat turns, when the bench
 * sent each POST, the server received it, the server started its model request and the mock model
 * received it (ms after the first POST; every 7th turn, the median and the last).
 */
import fs from 'node:fs';

const files = fs.readdirSync('/tmp').filter((f) => /^http-trace-\d+\.json$/.test(f));
const traces = files.map((f) => JSON.parse(fs.readFileSync(`/tmp/${f}`, 'utf8')));
const last50 = (rows, kind, match) =>
  rows
    .filter(([k, , url]) => k === kind && match(url))
    .map(([, at]) => at)
    .sort((a, b) => a - b)
    .slice(-50);
const isChat = (url) => url.endsWith('/chat');
const isModel = (url) => url.includes('chat/completions');
const bench = traces.find((t) => t.some(([k, , u]) => k === 'out' && isChat(u)));
const server = traces.filter((t) => t.some(([k, , u]) => k === 'in' && isChat(u))).at(-1);
const model = traces.filter((t) => t.some(([k, , u]) => k === 'in' && isModel(u))).at(-1);
if (!bench || !server || !model) throw new Error('run the chat group with http-trace.mjs preloaded first');
const rows = {
  'bench sends POST': last50(bench, 'out', isChat),
  'server gets POST': last50(server, 'in', isChat),
  'server starts model request': last50(server, 'out', isModel),
  'model gets request': last50(model, 'in', isModel),
};
const t0 = rows['bench sends POST'][0];
const ms = (x) => Math.round((x - t0) * 10) / 10;
for (const [name, xs] of Object.entries(rows)) {
  console.log(
    `${name.padEnd(28)} ${xs
      .filter((_, i) => i % 7 === 0)
      .map(ms)
      .join(' ')}  p50 ${ms(xs[25])}  last ${ms(xs.at(-1))}`,
  );
}
