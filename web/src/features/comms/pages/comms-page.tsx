import { useQueryClient } from '@tanstack/react-query';
import { MessageSquarePlus, MessagesSquare } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth';
import { notify } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { useAssignableUsers } from '../../../lib/queries/users';
import { notifyLinkFailed } from '../../../lib/use-linked-record';
import { commsKeys, useCreateThread, useThread, useThreads } from '../api';
import { CreateConversationDialog } from '../components/create-conversation-dialog';
import { ThreadList } from '../components/thread-list';
import { ThreadView } from '../components/thread-view';
import { type CommsNavigationState, openFromNavigation } from './navigation-state';

export const LOADING_TEXT = 'Loading Comms Center...';
export const PREPARING_TEXT = 'Preparing communication...';

export default function CommsPage() {
  const { user } = useAuth();
  const qc = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const activeId = params.get('thread');
  const threads = useThreads();
  const [creating, setCreating] = useState(false);
  const contacts = useAssignableUsers(creating);
  const create = useCreateThread();
  const [preparing, setPreparing] = useState(false);
  const handled = useRef<string | null>(null);

  // A citation may name a message of the thread (?thread=…&message=…): it is scrolled to and marked.
  const messageId = params.get('message');
  const active = useThread(activeId);

  const select = (id: string | null) => setParams(id ? { thread: id } : {}, { replace: false });

  // A link to a thread the reader is not in (404) says so and leaves the link, instead of an empty view.
  useEffect(() => {
    if (!activeId || !active.isError) return;
    notifyLinkFailed('conversation', active.error);
    setParams({}, { replace: true });
  }, [activeId, active.isError, active.error, setParams]);

  // Entry points from other screens: activateThreadId, or recipientName + initialAiSuggestionText.
  useEffect(() => {
    const state = location.state as CommsNavigationState | null;
    if (!state || handled.current === location.key) return;
    if (!state.activateThreadId && !state.recipientName) return;
    handled.current = location.key;
    setPreparing(true);
    openFromNavigation(state)
      .then((threadId) => {
        void qc.invalidateQueries({ queryKey: commsKeys.all });
        navigate(threadId ? `/app/comms?thread=${encodeURIComponent(threadId)}` : '/app/comms', {
          replace: true,
          state: null,
        });
      })
      .catch((e: Error) => {
        notify.error('Could not open the conversation', e.message);
        navigate('/app/comms', { replace: true, state: null });
      })
      .finally(() => setPreparing(false));
  }, [location.key, location.state, navigate, qc]);

  const onCreate = (ids: string[]) =>
    create.mutate(ids, {
      onSuccess: (t) => {
        setCreating(false);
        select(t.id);
      },
      onError: (e) => notify.error('Could not create the conversation', e.message),
    });

  const busy = preparing || threads.isPending;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Comms Center"
        description="Conversations with your colleagues, with AI-suggested replies."
        actions={
          <Button onClick={() => setCreating(true)}>
            <MessageSquarePlus aria-hidden="true" />
            New Message
          </Button>
        }
      />
      {busy ? (
        <div role="status" className="flex items-center justify-center gap-2 py-16 text-muted-foreground">
          <Spinner />
          {preparing ? PREPARING_TEXT : LOADING_TEXT}
        </div>
      ) : threads.isError ? (
        <Alert>Failed to load conversations: {threads.error.message}</Alert>
      ) : (
        <div className="flex h-[calc(100dvh-13.5rem)] min-h-[26rem] overflow-hidden rounded-xl border border-border bg-card">
          <div
            className={cn(
              'min-h-0 w-full overflow-y-auto border-border lg:block lg:w-80 lg:shrink-0 lg:border-r',
              activeId ? 'hidden' : 'block',
            )}
          >
            <ThreadList threads={threads.data ?? []} activeId={activeId} onSelect={select} />
          </div>
          <div className={cn('min-h-0 min-w-0 flex-1', activeId ? 'block' : 'hidden lg:block')}>
            {activeId ? (
              <ThreadView
                key={activeId}
                threadId={activeId}
                meId={user?.id}
                highlightMessageId={messageId}
                onBack={() => select(null)}
              />
            ) : (
              <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center text-muted-foreground">
                <MessagesSquare aria-hidden="true" className="size-8" />
                <p className="text-sm">Choose a conversation, or start one with New Message.</p>
              </div>
            )}
          </div>
        </div>
      )}
      <CreateConversationDialog
        open={creating}
        onOpenChange={setCreating}
        contacts={contacts.data ?? []}
        loading={contacts.isPending}
        pending={create.isPending}
        onCreate={onCreate}
      />
    </div>
  );
}
