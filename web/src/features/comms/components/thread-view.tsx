import { COMMS_MESSAGES_PAGE_SIZE } from '@cc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, MoreVertical, Pencil, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { Skeleton } from '../../../components/ui/skeleton';
import { type StreamMessage, useEventStream } from '../../../lib/event-stream';
import { notify } from '../../../lib/toast';
import {
  addMessages,
  commsKeys,
  fetchEarlierMessages,
  type Message,
  threadEventsPath,
  useDeleteThread,
  useDismissSuggestion,
  useMessages,
  useRenameThread,
  useSendMessage,
  useSuggestion,
  useThread,
  useUseSuggestion,
} from '../api';
import { Avatar } from './avatar';
import { MessageComposer } from './message-composer';
import { MessageList } from './message-list';
import { RenameThreadDialog } from './rename-thread-dialog';
import { StreamStatusBadge } from './stream-status';
import { SuggestionPanel } from './suggestion-panel';
import { threadRole } from './thread-list';

const isMessage = (data: unknown): data is Message =>
  typeof data === 'object' && data !== null && 'id' in data && 'seq' in data && 'text' in data;

/** One conversation: header with back and options, bubbles, the AI suggestion panel and the composer. */
export function ThreadView({
  threadId,
  meId,
  highlightMessageId = null,
  onBack,
}: {
  threadId: string;
  meId: string | undefined;
  /** A message a link names: scrolled to and marked. */
  highlightMessageId?: string | null;
  onBack: () => void;
}) {
  const qc = useQueryClient();
  const thread = useThread(threadId);
  const messages = useMessages(threadId);
  const suggestion = useSuggestion(threadId);
  const send = useSendMessage(threadId);
  const use = useUseSuggestion(threadId);
  const dismiss = useDismissSuggestion(threadId);
  const rename = useRenameThread();
  const remove = useDeleteThread();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [earlier, setEarlier] = useState<{ loading: boolean; more: boolean }>({ loading: false, more: true });

  // The stream resumes after the newest message loaded, so nothing between the two reads is lost.
  const [cursor, setCursor] = useState<{ thread: string; seq: number } | null>(null);
  if (messages.data && cursor?.thread !== threadId) {
    setCursor({ thread: threadId, seq: messages.data.at(-1)?.seq ?? 0 });
  }
  const streamPath =
    cursor?.thread === threadId ? `${threadEventsPath(threadId)}?last_event_id=${cursor.seq}` : null;

  const onMessage = useCallback(
    (msg: StreamMessage) => {
      if (msg.event === 'suggestion') {
        void qc.invalidateQueries({ queryKey: commsKeys.suggestion(threadId) });
        void qc.invalidateQueries({ queryKey: commsKeys.threads });
        return;
      }
      if (!isMessage(msg.data)) {
        console.warn('Unexpected comms stream data', msg.data);
        return;
      }
      addMessages(qc, threadId, [msg.data]);
      void qc.invalidateQueries({ queryKey: commsKeys.threads });
    },
    [qc, threadId],
  );
  const status = useEventStream(streamPath, { onMessage });

  const loadEarlier = async () => {
    const first = messages.data?.[0];
    if (!first) return;
    setEarlier({ loading: true, more: true });
    try {
      const page = await fetchEarlierMessages(threadId, first.seq);
      addMessages(qc, threadId, page);
      setEarlier({ loading: false, more: page.length >= COMMS_MESSAGES_PAGE_SIZE });
    } catch {
      setEarlier({ loading: false, more: true });
    }
  };

  const t = thread.data;
  const role = t ? threadRole(t) : '';
  const current = suggestion.data?.status === 'ready' ? suggestion.data : null;

  return (
    <section
      className="flex h-full min-h-0 flex-col"
      aria-label={t ? `Conversation with ${t.name}` : 'Conversation'}
    >
      <header className="flex items-center gap-2 border-b border-border px-2 py-2 sm:px-3">
        <Button variant="ghost" size="icon" onClick={onBack} aria-label="Back to conversations">
          <ArrowLeft aria-hidden="true" />
        </Button>
        {t ? (
          <>
            <Avatar name={t.name} className="size-9" />
            <div className="flex min-w-0 flex-1 flex-col">
              <h2 className="truncate font-semibold leading-tight">{t.name}</h2>
              {role ? <p className="truncate text-xs text-muted-foreground">{role}</p> : null}
            </div>
          </>
        ) : (
          <div className="flex flex-1 flex-col gap-1">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-24" />
          </div>
        )}
        <StreamStatusBadge status={status} />
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label="Conversation options" disabled={!t}>
              <MoreVertical aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => setRenaming(true)}>
              <Pencil aria-hidden="true" />
              Edit Name
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => setDeleting(true)} className="text-destructive">
              <Trash2 aria-hidden="true" />
              Delete Chat
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </header>

      {messages.isPending ? (
        <div className="flex flex-1 flex-col gap-3 p-4">
          <Skeleton className="h-10 w-2/3" />
          <Skeleton className="h-10 w-1/2 self-end" />
        </div>
      ) : (
        <MessageList
          messages={messages.data ?? []}
          meId={meId}
          highlightId={highlightMessageId}
          canLoadEarlier={earlier.more && (messages.data?.length ?? 0) >= COMMS_MESSAGES_PAGE_SIZE}
          loadingEarlier={earlier.loading}
          onLoadEarlier={() => void loadEarlier()}
        />
      )}

      {current ? (
        <SuggestionPanel
          key={current.id}
          suggestion={current}
          busy={use.isPending ? 'use' : dismiss.isPending ? 'ignore' : null}
          onIgnore={() =>
            dismiss.mutate(undefined, {
              onError: (e) => notify.error('Could not dismiss the suggestion', e.message),
            })
          }
          onUse={(text) =>
            use.mutate(text, { onError: (e) => notify.error('Could not send the message', e.message) })
          }
        />
      ) : null}

      <MessageComposer
        pending={send.isPending}
        onSend={(text) =>
          send.mutateAsync(text).catch((e: Error) => {
            notify.error('Could not send the message', e.message);
            throw e;
          })
        }
      />

      {t ? (
        <RenameThreadDialog
          key={renaming ? 'open' : 'closed'}
          open={renaming}
          onOpenChange={setRenaming}
          initialName={t.custom_name ?? t.name}
          pending={rename.isPending}
          onSave={(name) =>
            rename.mutate(
              { id: threadId, name },
              {
                onSuccess: () => setRenaming(false),
                onError: (e) => notify.error('Could not rename the conversation', e.message),
              },
            )
          }
        />
      ) : null}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete Chat"
        description="Delete this conversation and its messages for you? The other people keep their copy."
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(threadId, {
            onSuccess: () => {
              setDeleting(false);
              onBack();
            },
            onError: (e) => notify.error('Could not delete the conversation', e.message),
          })
        }
      />
    </section>
  );
}
