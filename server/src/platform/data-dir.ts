import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * The data directory holds the SQLite database, the token signing secret, the key of stored secrets
 * and uploaded files: nobody but the server's own account may read any of it.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The process umask at start: whatever it creates later (SQLite's journals, temporary files) is the owner's alone. */
export const PRIVATE_UMASK = 0o077;

/** Creates a directory and its missing parents, owner only. An existing one is left as it is (it may be shared on purpose). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Narrows a file of ours to its owner; a file that does not exist (yet) is fine. */
export function makeOwnerOnly(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** True when group or others may enter or read the directory (worth a warning at start). */
export function isSharedDir(dir: string): boolean {
  try {
    return (statSync(dir).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}
