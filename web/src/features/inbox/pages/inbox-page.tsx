import { Inbox, X } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { useInboxList } from '../api';
import { InboxItemCard } from '../components/inbox-item-card';
import { useLinkedInboxItem } from '../use-linked-inbox-item';

export const INBOX_TITLE = 'Inbox';
export const INBOX_DESCRIPTION =
  'Everything waiting for you, oldest first: task suggestions, runs waiting for you, AI-drafted replies and approvals.';
export const INBOX_EMPTY = 'Nothing is waiting for you.';

/** /app/inbox: the approvals inbox (kept live by the shell's inbox stream). */
export default function InboxPage() {
  const list = useInboxList();
  const items = list.data?.items ?? [];
  const linked = useLinkedInboxItem(list.data, list.isError);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={INBOX_TITLE} description={INBOX_DESCRIPTION} />
      {linked.notice ? (
        <Alert variant="info" className="flex items-start justify-between gap-3">
          <span>{linked.notice}</span>
          <button
            type="button"
            onClick={linked.dismissNotice}
            className="shrink-0 rounded-sm opacity-80 hover:opacity-100"
            aria-label="Dismiss"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </Alert>
      ) : null}
      {list.isPending ? (
        <div className="flex flex-col gap-3" role="status">
          <span className="sr-only">Loading the inbox…</span>
          <Skeleton className="h-32" />
          <Skeleton className="h-32" />
        </div>
      ) : list.isError ? (
        <Alert>Could not load the inbox: {list.error.message}</Alert>
      ) : items.length === 0 ? (
        <p className="flex flex-col items-center gap-2 rounded-md border border-dashed border-border px-4 py-12 text-center text-sm text-muted-foreground">
          <Inbox className="size-6" aria-hidden="true" />
          {INBOX_EMPTY}
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Waiting items">
          {items.map((item) => (
            <WaitingItem key={item.id} focused={item.id === linked.focusedId}>
              <InboxItemCard item={item} />
            </WaitingItem>
          ))}
        </ul>
      )}
      {list.data && list.data.total > items.length ? (
        <p className="text-sm text-muted-foreground">
          Showing the oldest {items.length} of {list.data.total}.
        </p>
      ) : null}
    </div>
  );
}

/**
 * One row of the list; the linked one is scrolled to, focused (so the keyboard is on its actions at
 * once) and marked with a ring and `aria-current`.
 */
function WaitingItem({ focused, children }: { focused: boolean; children: ReactNode }) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!focused) return;
    ref.current?.scrollIntoView?.({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [focused]);
  return (
    <li
      ref={ref}
      tabIndex={focused ? -1 : undefined}
      aria-current={focused ? 'true' : undefined}
      className={
        focused
          ? 'rounded-xl outline-none ring-2 ring-primary ring-offset-2 ring-offset-background'
          : undefined
      }
    >
      {children}
    </li>
  );
}
