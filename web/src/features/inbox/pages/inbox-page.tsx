import { Inbox } from 'lucide-react';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { useInboxList } from '../api';
import { InboxItemCard } from '../components/inbox-item-card';

export const INBOX_TITLE = 'Inbox';
export const INBOX_DESCRIPTION =
  'Everything waiting for you, oldest first: task suggestions, runs waiting for you, AI-drafted replies and approvals.';
export const INBOX_EMPTY = 'Nothing is waiting for you.';

/** /app/inbox: the approvals inbox (kept live by the shell's inbox stream). */
export default function InboxPage() {
  const list = useInboxList();
  const items = list.data?.items ?? [];
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={INBOX_TITLE} description={INBOX_DESCRIPTION} />
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
            <li key={item.id}>
              <InboxItemCard item={item} />
            </li>
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
