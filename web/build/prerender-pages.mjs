// After `vite build` and `vite build --ssr src/prerender.tsx`: writes the public pages' HTML (the app's
// index.html with each page's markup inside #root) to dist/prerendered/, with .br and .gz beside each.
// The server sends these for /, /login, /signup and /about (server/src/platform/spa.ts), so those pages
// paint before the app's script has loaded.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const ssr = path.join(web, 'dist-ssr');
const { PRERENDERED_PATHS, prerenderedFile, renderPage } = await import(
  pathToFileURL(path.join(ssr, 'prerender.js')).href
);

const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
const EMPTY_ROOT = '<div id="root"></div>';
if (!template.includes(EMPTY_ROOT)) throw new Error(`dist/index.html has no ${EMPTY_ROOT}`);
const out = path.join(dist, 'prerendered');
mkdirSync(out, { recursive: true });
for (const page of PRERENDERED_PATHS) {
  const html = template.replace(EMPTY_ROOT, `<div id="root">${await renderPage(page)}</div>`);
  const file = path.join(dist, prerenderedFile(page));
  writeFileSync(file, html);
  writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
}
rmSync(ssr, { recursive: true, force: true });
console.log(`prerendered ${PRERENDERED_PATHS.join(', ')} into dist/prerendered/`);
