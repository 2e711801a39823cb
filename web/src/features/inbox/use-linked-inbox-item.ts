import type { TInboxList } from '@cc/contract';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

export const INBOX_LINKED_GONE = 'This item is no longer waiting for you.';
export const INBOX_LINKED_NOT_SHOWN =
  'This item is not among the oldest items shown here; act on the older ones first or find it in its source.';

/**
 * `/app/inbox?item=<id>` (a brief's action or chip, a link in its e-mail) picks out that item once the
 * list has loaded: `focusedId` when it still waits for the reader, else a `notice` saying why it is
 * not there (decided, delegated away, or never theirs: the list cannot tell them apart, and must not).
 * The parameter is dropped afterwards so a reload does not pick it again.
 */
export function useLinkedInboxItem(list: TInboxList | undefined, failed: boolean) {
  const [params, setParams] = useSearchParams();
  const id = params.get('item');
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const settled = list !== undefined || failed;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per linked id, when the list is first there
  useEffect(() => {
    if (!id || !settled) return;
    if (list?.items.some((i) => i.id === id)) {
      setFocusedId(id);
      setNotice(null);
    } else if (list) {
      setFocusedId(null);
      setNotice(list.total > list.items.length ? INBOX_LINKED_NOT_SHOWN : INBOX_LINKED_GONE);
    }
    setParams(
      (p) => {
        p.delete('item');
        return p;
      },
      { replace: true },
    );
  }, [id, settled]);

  return { focusedId, notice, dismissNotice: () => setNotice(null) };
}
