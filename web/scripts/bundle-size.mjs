#!/usr/bin/env node
// Reports the gzip size of the JavaScript each route downloads: the entry chunk, the page's lazy chunk
// and everything they import statically. Run after `vite build`: `node scripts/bundle-size.mjs`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = new URL('../dist/', import.meta.url).pathname;
const assets = join(dir, 'assets');
const html = readFileSync(join(dir, 'index.html'), 'utf8');
const entry = html.match(/<script[^>]+src="\/assets\/([^"]+\.js)"/)?.[1];
if (!entry) throw new Error('no entry script in dist/index.html');

const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
const gz = new Map(files.map((f) => [f, gzipSync(readFileSync(join(assets, f))).length]));
const staticImports = (f) => {
  const code = readFileSync(join(assets, f), 'utf8');
  const found = new Set();
  for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g))
    found.add(m[1]);
  return [...found];
};
const closure = (roots) => {
  const seen = new Set();
  const walk = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const d of staticImports(f)) walk(d);
  };
  roots.forEach(walk);
  return seen;
};
const page = (name) => {
  const f = files.find((x) => x.startsWith(`${name}-`));
  if (!f) throw new Error(`no chunk named ${name}-*.js in dist/assets (was the page's file renamed?)`);
  return f;
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sum = (set) => [...set].reduce((t, f) => t + gz.get(f), 0);

const routes = {
  '/': ['landing-page'],
  '/login': ['login-page'],
  '/signup': ['signup-page'],
  '/app/ceodashboard': ['app-shell', 'ceo-dashboard-route'],
};
const report = {};
for (const [route, pages] of Object.entries(routes)) {
  const set = closure([entry, ...pages.map(page)]);
  report[route] = sum(set);
  console.log(`${route.padEnd(20)} ${kb(report[route]).padStart(9)}  (${set.size} chunks)`);
}
const publicSet = closure([entry, page('landing-page'), page('login-page'), page('signup-page')]);
console.log(`${'public pages total'.padEnd(20)} ${kb(sum(publicSet)).padStart(9)}  (budget 170 KB)`);
const biggest = [...gz.entries()].filter(([f]) => f !== entry).sort((a, b) => b[1] - a[1])[0];
console.log(
  `${'largest lazy chunk'.padEnd(20)} ${kb(biggest[1]).padStart(9)}  ${biggest[0]} (budget 100 KB)`,
);
