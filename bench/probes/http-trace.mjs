/**
 * Where a burst of chat turns waits (issue #18): preload into every process of a bench run to record,
 * with absolute times, when each process starts or receives a chat POST or a model request
 * (`node:diagnostics_channel` http events), then read the files with http-trace-show.mjs.
 * Usage: NODE_OPTIONS="--import $PWD/bench/probes/http-trace.mjs" BENCH_ONLY=chat BENCH_ENGINES=sqlite npm run bench -w bench
 *        node bench/probes/http-trace-show.mjs
 * Each process writes /tmp/http-trace-<pid>.json when it exits.
 */
import dc from 'node:diagnostics_channel';
import fs from 'node:fs';

const seen = [];
const now = () => performance.timeOrigin + performance.now();
const traced = (url = '') => url.endsWith('/chat') || url.includes('chat/completions');

dc.subscribe('http.server.request.start', ({ request }) => {
  if (request.method === 'POST' && traced(request.url)) seen.push(['in', now(), request.url]);
});
dc.subscribe('http.client.request.start', ({ request }) => {
  if (traced(request.path)) seen.push(['out', now(), request.path]);
});
process.on('exit', () => {
  if (seen.length) fs.writeFileSync(`/tmp/http-trace-${process.pid}.json`, JSON.stringify(seen));
});
