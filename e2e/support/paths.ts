import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The e2e workspace directory. */
export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root (the built server is started from here). */
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
/**
 * Everything a run leaves behind: reports, screenshots, traces, the server log. Git-ignored.
 * E2E_ARTIFACTS_DIR moves it (e.g. two runs at once in one working tree: Playwright empties it at start).
 */
export const ARTIFACTS_DIR = process.env.E2E_ARTIFACTS_DIR
  ? path.resolve(process.env.E2E_ARTIFACTS_DIR)
  : path.join(E2E_DIR, 'artifacts');
