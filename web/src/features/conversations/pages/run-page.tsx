import { MessageSquareText, Plus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useConversations, useCreateConversation } from '../../../lib/queries/conversations';
import { defaultInteractionName } from '../api';

/** /app/run: the AI interactions (conversations), newest activity first, and "New Interaction". */
export default function RunPage() {
  const navigate = useNavigate();
  const list = useConversations();
  const create = useCreateConversation();

  const startNew = () =>
    create.mutate(defaultInteractionName(), {
      onSuccess: (c) => navigate(`/app/conversations/${c.id}`),
      onError: () => notify.error('Error', 'Failed to create conversation.'),
    });

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title="Run"
        description="Your AI interactions: chat with the assistant, run crews and flows."
        actions={
          <Button onClick={startNew} disabled={create.isPending}>
            {create.isPending ? <Spinner /> : <Plus aria-hidden="true" />}
            New Interaction
          </Button>
        }
      />
      {list.isPending ? (
        <div className="flex flex-col gap-2">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : list.isError ? (
        <Alert>The interactions could not be loaded.</Alert>
      ) : list.data.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 px-6 py-12 text-center">
          <MessageSquareText aria-hidden="true" className="size-8 text-muted-foreground" />
          <p className="font-medium">No AI interactions yet.</p>
          <p className="text-sm text-muted-foreground">Start a new interaction to begin.</p>
        </Card>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="AI interactions">
          {list.data.map((c) => (
            <li key={c.id}>
              <Link
                to={`/app/conversations/${c.id}`}
                className="flex items-center justify-between gap-3 rounded-lg border border-border bg-card px-4 py-3 transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
              >
                <span className="flex min-w-0 items-center gap-3">
                  <MessageSquareText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <span className="truncate font-medium">{c.name}</span>
                </span>
                <span className="shrink-0 text-xs text-muted-foreground">{formatDate(c.updated_at)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
