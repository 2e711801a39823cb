import { Component, memo, type ReactNode, useCallback, useSyncExternalStore } from 'react';
import { CitationChips } from '../../../components/citation-chips';
import { CopyButton } from '../../../components/copy-button';
import { Markdown } from '../../../components/markdown/markdown';
import { cn } from '../../../lib/utils';
import type { ChatMessage, MessageStore } from '../message-store';

const SENDER_LABEL: Record<ChatMessage['sender'], string> = {
  user: 'You',
  assistant: 'Assistant',
  system: 'System',
  crew: 'Crew',
};

/** Who wrote it: the run engine's lines name what ran (a flow's are not "Crew"). */
export function senderLabel(message: Pick<ChatMessage, 'sender' | 'flow_run_id'>): string {
  if (message.sender === 'crew' && message.flow_run_id) return 'Flow';
  return SENDER_LABEL[message.sender] ?? message.sender;
}

/** One message can fail to render without taking the log down. */
class MessageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (this.state.failed) {
      return <p className="text-sm text-destructive-foreground italic">Error displaying message content.</p>;
    }
    return this.props.children;
  }
}

export function MessageBody({ message }: { message: ChatMessage }) {
  if (typeof message.text !== 'string') throw new Error('message text is not a string');
  if (message.sender === 'assistant' && message.status === 'streaming' && message.text === '') {
    return (
      <p className="text-sm text-muted-foreground italic" aria-live="polite">
        thinking...
      </p>
    );
  }
  if (message.sender === 'user') {
    return <p className="text-sm whitespace-pre-wrap break-words">{message.text}</p>;
  }
  return (
    <>
      {message.text ? <Markdown content={message.text} className="text-sm" /> : null}
      {message.status === 'stopped' ? <p className="mt-1 text-xs text-muted-foreground">Stopped.</p> : null}
      {/* A finished answer names the records it used, or says it used none (issue 20 §3). */}
      {message.sender === 'assistant' && message.status === 'complete' && !message.local ? (
        <CitationChips citations={message.citations ?? []} />
      ) : null}
    </>
  );
}

/** A row subscribed to its own message only: a streaming token re-renders this row, not the log. */
export const MessageItem = memo(function MessageItem({ id, store }: { id: string; store: MessageStore }) {
  const subscribe = useCallback((fn: () => void) => store.subscribeMessage(id, fn), [id, store]);
  const message = useSyncExternalStore(subscribe, () => store.get(id));
  if (!message) return null;
  const mine = message.sender === 'user';
  return (
    <div className={cn('flex py-1.5', mine ? 'justify-end' : 'justify-start')} data-testid="chat-message">
      <div
        className={cn(
          'max-w-[85%] min-w-0 rounded-lg border px-3 py-2',
          mine ? 'border-primary/40 bg-primary/10' : 'border-border bg-card',
          message.status === 'failed' && 'border-destructive/60',
        )}
        data-sender={message.sender}
        data-status={message.status}
        data-local={message.local ? 'true' : undefined}
      >
        <div className="mb-1 flex items-center justify-between gap-2">
          <p className="text-xs font-medium text-muted-foreground">{senderLabel(message)}</p>
          {message.status !== 'streaming' && typeof message.text === 'string' && message.text ? (
            <CopyButton text={message.text} label="Copy message" />
          ) : null}
        </div>
        <MessageBoundary>
          <MessageBody message={message} />
        </MessageBoundary>
      </div>
    </div>
  );
});
