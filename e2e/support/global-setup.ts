import type { FullConfig } from '@playwright/test';
import { startBuiltServer } from './server.ts';

/**
 * Starts the built app once for the whole run (fresh SQLite database, demo workspace) and hands its
 * address to the workers through E2E_BASE_URL. Returns the teardown (SIGTERM, then remove the temp dir).
 * With E2E_BASE_URL already set, the tests run against that server instead (e.g. `npm run dev`).
 */
export default async function globalSetup(_config: FullConfig) {
  if (process.env.E2E_BASE_URL) {
    console.log(`[e2e] using the server at ${process.env.E2E_BASE_URL}`);
    return;
  }
  const server = await startBuiltServer();
  process.env.E2E_BASE_URL = server.baseURL;
  console.log(`[e2e] built app started at ${server.baseURL} (log: ${server.logFile})`);
  return async () => {
    await server.stop();
  };
}
