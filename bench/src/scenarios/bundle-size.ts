import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BundleFile, BundleResult, ScenarioGroup } from './types.ts';

/** Public pages: at most 170 kB (170,000 bytes) of gzipped JavaScript each (ARCHITECTURE.md section 8). */
export const PUBLIC_PAGE_BUDGET = 170_000;
/** gzip level 6: what a web server or CDN typically serves (stricter than -9). */
const GZIP_LEVEL = 6;

/**
 * The lazy route chunk(s) of each page, found by their source path in the Vite manifest. A page whose
 * component is in the entry chunk simply matches nothing.
 */
const PAGES: { page: string; route: RegExp[] }[] = [
  { page: '/', route: [/(^|\/)(landing|home)[^/]*\.(t|j)sx?$/i] },
  { page: '/login', route: [/(^|\/)login[^/]*\.(t|j)sx?$/i] },
  { page: '/signup', route: [/(^|\/)sign-?up[^/]*\.(t|j)sx?$/i] },
];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function gz(dist: string, file: string): BundleFile & { abs: string } {
  const abs = path.join(dist, file);
  const buf = readFileSync(abs);
  return {
    abs,
    file,
    raw_bytes: buf.length,
    gzip_bytes: gzipSync(buf, { level: GZIP_LEVEL }).length,
    reason: '',
  };
}

/** `/assets/x.js` or `./assets/x.js` or an absolute URL on the same host -> `assets/x.js`. */
function distPath(url: string): string {
  const u = new URL(url, 'http://dist.invalid/');
  return decodeURIComponent(u.pathname.replace(/^\/+/, ''));
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

/** The entry module script(s) and modulepreload links of web/dist/index.html. */
export function initialScripts(html: string): { entries: string[]; preloads: string[] } {
  const entries: string[] = [];
  const preloads: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>/gi)) {
    const a = attrs(m[1]);
    if (a.src && a.type === 'module') entries.push(distPath(a.src));
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const a = attrs(m[1]);
    if (a.href && a.rel?.split(/\s+/).includes('modulepreload')) preloads.push(distPath(a.href));
  }
  return { entries, preloads };
}

/** A chunk and its static imports, transitively (what loading it costs). */
function withStaticImports(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const imp of manifest[key].imports ?? []) withStaticImports(manifest, imp, seen);
  return seen;
}

function staticPages(dist: string, notes: string[]): BundleResult[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  const { entries, preloads } = initialScripts(html);
  const manifest: Manifest | null = existsSync(manifestFile)
    ? JSON.parse(readFileSync(manifestFile, 'utf8'))
    : null;
  if (!manifest) {
    notes.push(
      'web/dist/.vite/manifest.json is missing (set build.manifest: true in web/vite.config.ts): ' +
        'bundle sizes count only the entry script and its modulepreloads, not the lazy route chunks',
    );
  }
  const results: BundleResult[] = [];
  for (const { page, route } of PAGES) {
    const files = new Map<string, string>();
    for (const f of entries) files.set(f, 'entry script');
    for (const f of preloads) if (!files.has(f)) files.set(f, 'modulepreload');
    let note: string | undefined;
    if (manifest) {
      const routeKeys = Object.keys(manifest).filter(
        (k) => manifest[k].isDynamicEntry && route.some((re) => re.test(manifest[k].src ?? k)),
      );
      if (routeKeys.length === 0)
        note = 'no lazy route chunk matched: the page is assumed to be in the entry';
      for (const rk of routeKeys) {
        for (const k of withStaticImports(manifest, rk)) {
          const file = manifest[k].file;
          if (file.endsWith('.js') && !files.has(file))
            files.set(file, `route chunk (${manifest[rk].src ?? rk})`);
        }
      }
    }
    const list = [...files].filter(([f]) => f.endsWith('.js') || f.endsWith('.mjs'));
    const measured = list.map(([f, reason]) => ({ ...gz(dist, f), reason }));
    const total = measured.reduce((s, f) => s + f.gzip_bytes, 0);
    results.push({
      page,
      method: manifest ? 'manifest' : 'entry+preloads',
      files: measured.map(({ abs: _abs, ...f }) => f),
      total_gzip_bytes: total,
      budget_gzip_bytes: PUBLIC_PAGE_BUDGET,
      within_budget: total <= PUBLIC_PAGE_BUDGET,
      note,
    });
  }
  return results;
}

/**
 * What Chromium actually downloads: open each page on the running server, wait for the network to
 * go idle, and count every same-origin script (gzip size of the file in web/dist).
 */
async function observedPages(baseURL: string, dist: string, notes: string[]): Promise<BundleResult[]> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    notes.push(`${executablePath} not found: skipped the in-browser bundle measurement`);
    return [];
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  const results: BundleResult[] = [];
  try {
    for (const { page: route } of PAGES) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (res) => {
        const url = new URL(res.url());
        const isJs = res.request().resourceType() === 'script' || /\.m?js$/.test(url.pathname);
        if (url.origin === new URL(baseURL).origin && isJs && res.ok()) scripts.add(distPath(url.pathname));
      });
      await page.goto(baseURL + route, { waitUntil: 'networkidle' });
      await context.close();
      const files = [...scripts]
        .filter((f) => existsSync(path.join(dist, f)))
        .map((f) => {
          const { abs: _abs, ...rest } = gz(dist, f);
          return { ...rest, reason: 'loaded by Chromium' };
        });
      const total = files.reduce((s, f) => s + f.gzip_bytes, 0);
      results.push({
        page: route,
        method: 'chromium',
        files,
        total_gzip_bytes: total,
        budget_gzip_bytes: PUBLIC_PAGE_BUDGET,
        within_budget: total <= PUBLIC_PAGE_BUDGET,
      });
    }
  } finally {
    await browser.close();
  }
  return results;
}

export const bundleSize: ScenarioGroup = {
  name: 'bundle-size',
  once: true,
  description: 'gzip size of the initial JavaScript of the public pages, against the 170 kB budget',
  async run(ctx) {
    const notes: string[] = [];
    const dist = ctx.webDist;
    if (!dist || !existsSync(path.join(dist, 'index.html'))) {
      return { notes: ['web/dist/index.html is missing: run `npm run build` first'] };
    }
    const bundles = staticPages(dist, notes);
    try {
      bundles.push(...(await observedPages(ctx.baseURL, dist, notes)));
    } catch (err) {
      notes.push(`in-browser bundle measurement failed: ${(err as Error).message.split('\n')[0]}`);
    }
    return { bundles, notes };
  },
};
