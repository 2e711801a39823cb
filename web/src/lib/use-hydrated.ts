import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while a prerendered page is being hydrated (and in the prerender itself), true once the app
 * is live; true from the start when the page was not prerendered. A prerendered form stays disabled
 * until then, so a click before the script ran cannot submit it natively or lose what was typed.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
