import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendNotFound } from './error-handler.ts';

/**
 * The public pages the web build prerenders (web/src/prerender.tsx writes them under these names):
 * their HTML already holds the page, so it paints before the app's script has run.
 */
const PRERENDERED: Record<string, string> = {
  '/': 'prerendered/index.html',
  '/login': 'prerendered/login.html',
  '/signup': 'prerendered/signup.html',
  '/about': 'prerendered/about.html',
};

/**
 * Serves the built web app, precompressed: hashed assets cached for a year, index.html never cached, and every
 * non-API GET that is not a file falls back to index.html (client-side routing).
 */
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<boolean> {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ webDist }, 'web app not built: run `npm run build` to serve the UI');
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The web build writes a .br and a .gz beside each asset (web/build/precompress.plugin.ts): the
    // one the browser accepts is sent as it is, with `Vary: Accept-Encoding`.
    preCompressed: true,
    setHeaders(res, file) {
      res.header(
        'cache-control',
        file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const prerendered = new Map(
    Object.entries(PRERENDERED).filter(([, file]) => existsSync(path.join(webDist, file))),
  );
  app.setNotFoundHandler((req, reply) => {
    const urlPath = req.url.split('?')[0];
    const isApi = urlPath === '/api' || urlPath.startsWith('/api/');
    if (isApi || (req.method !== 'GET' && req.method !== 'HEAD') || path.extname(urlPath)) {
      return sendNotFound(req, reply);
    }
    reply.header('cache-control', 'no-cache');
    const page = urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath;
    return reply.sendFile(prerendered.get(page) ?? 'index.html');
  });
  return true;
}
