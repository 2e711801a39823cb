import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from './api';
import { notify } from './toast';

/** The toast of a link (a citation chip, an e-mail) to a record the reader cannot see or that is gone. */
export const RECORD_NOT_AVAILABLE = 'This record is not available';
export const RECORD_NOT_AVAILABLE_DETAIL = 'It may have been deleted, or it is not shared with you.';

/**
 * Tells the reader a linked record cannot be opened: a 404 (the API's answer for a record they may
 * not see, or a deleted one) or a `null` read is "not available"; anything else names the failure.
 */
export function notifyLinkFailed(what: string, err: unknown) {
  if (err === null || (isApiError(err) && err.status === 404)) {
    notify.error(RECORD_NOT_AVAILABLE, RECORD_NOT_AVAILABLE_DETAIL);
  } else {
    notify.error(`Could not open the ${what}`, err instanceof Error ? err.message : String(err));
  }
}

/**
 * `?<param>=<id>` on a page (a citation chip, a link in an e-mail) opens that record: `read` loads it
 * through the feature's API (resolving `null` when it is not there), `open` shows it the way a click
 * would. The parameter is then dropped (replace), so closing the record does not reopen it and Back
 * does not land on the link again.
 */
export function useLinkedRecord<T>(
  param: string,
  what: string,
  read: (id: string) => Promise<T | null>,
  open: (record: T) => void,
) {
  const [params, setParams] = useSearchParams();
  const id = params.get(param);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per linked id, not per render of `read`/`open`
  useEffect(() => {
    if (!id) return;
    let live = true;
    read(id)
      .then((record) => {
        if (!live) return;
        if (record === null) notifyLinkFailed(what, null);
        else open(record);
      })
      .catch((err: unknown) => live && notifyLinkFailed(what, err))
      .finally(() => {
        if (!live) return;
        setParams(
          (p) => {
            p.delete(param);
            return p;
          },
          { replace: true },
        );
      });
    return () => {
      live = false;
    };
  }, [id, param]);
}
