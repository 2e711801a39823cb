import http from 'node:http';
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
const mode = process.argv[2];
if (process.argv[3] === 'server') {
  const ascii = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: crypto.randomUUID(), title: 'Review budget #' + i, description: 'x'.repeat(500), notes: 'y'.repeat(200) })));
  const two = ascii.replace('Review', 'Révi—w');
  let n = 0; let u0;
  const srv = http.createServer((req, res) => {
    if (req.url === '/start') { n = 0; u0 = process.cpuUsage(); res.end('ok'); return; }
    if (req.url === '/stop') { const u = process.cpuUsage(u0); res.end(`${((u.user + u.system) / 1000 / n).toFixed(4)} ms cpu/req, ${n} req`); return; }
    n++;
    res.setHeader('content-type', 'application/json');
    const body = mode === 'buf' ? bufc : mode === 'two' ? two : mode === 'enc' ? Buffer.from(ascii) : mode === 'enc2' ? Buffer.from(two) : mode === 'fresh' ? JSON.stringify(JSON.parse(ascii)) : ascii;
    res.end(body);
  });
  const bufc = Buffer.from(ascii);
  srv.listen(0, () => process.send(srv.address().port));
} else {
  const child = fork(new URL(import.meta.url).pathname, [mode, 'server']);
  const port = await new Promise((r) => child.once('message', r));
  const base = `http://127.0.0.1:${port}`;
  await fetch(base + '/start');
  const r = await autocannon({ url: base + '/', connections: 32, duration: 3 });
  console.log(mode, r.requests.average, 'req/s', await (await fetch(base + '/stop')).text());
  child.kill();
}
