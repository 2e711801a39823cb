import { useCallback, useState } from 'react';
import { isStaleVersion, versionOf } from './api';

interface Versioned {
  id: string;
  updated_at: string;
}

/**
 * An edit form's guard against overwriting someone else's change: `version(base)` is the If-Match
 * of a save (the fresh record's once a save was refused), and `onSaveError` turns a 412 into
 * `fresh`, re-read from the server, for the form to show beside the typed values.
 */
export function useStaleVersion<T extends Versioned>(readFresh: (id: string) => Promise<T>) {
  const [fresh, setFresh] = useState<T | null>(null);
  const version = useCallback((base: T) => versionOf(fresh && fresh.id === base.id ? fresh : base), [fresh]);
  const onSaveError = useCallback(
    async (err: unknown, id: string) => {
      if (!isStaleVersion(err)) return false;
      try {
        setFresh(await readFresh(id));
        return true;
      } catch {
        // Gone or unreadable meanwhile: the form reports the failed save as any other.
        return false;
      }
    },
    [readFresh],
  );
  const clear = useCallback(() => setFresh(null), []);
  return { fresh, version, onSaveError, clear };
}
