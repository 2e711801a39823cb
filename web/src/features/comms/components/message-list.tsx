import { Sparkles } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import type { Message } from '../api';

/** Spec section 9: the near-bottom scroll threshold is 50 px. */
const NEAR_BOTTOM_PX = 50;

const timeOf = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ''
    : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
};

/** Bubbles, own messages on the right; follows new messages while the reader is near the bottom. */
export function MessageList({
  messages,
  meId,
  highlightId = null,
  canLoadEarlier,
  loadingEarlier,
  onLoadEarlier,
}: {
  messages: Message[];
  meId: string | undefined;
  /** The message a link names (a citation): scrolled to once it is loaded, and marked. */
  highlightId?: string | null;
  canLoadEarlier: boolean;
  loadingEarlier: boolean;
  onLoadEarlier: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const lastId = messages.at(-1)?.id;

  // Only a new last message scrolls (loading earlier ones keeps the reader's place).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the last message changes
  useLayoutEffect(() => {
    const el = box.current;
    if (el && nearBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  const highlightShown = highlightId !== null && messages.some((m) => m.id === highlightId);
  // Runs after the follow-the-bottom scroll above, so the linked message wins (no scrollIntoView in jsdom).
  useLayoutEffect(() => {
    if (!highlightShown || !highlightId) return;
    nearBottom.current = false;
    const rows = box.current?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [];
    [...rows].find((el) => el.dataset.messageId === highlightId)?.scrollIntoView?.({ block: 'center' });
  }, [highlightShown, highlightId]);

  return (
    <div
      ref={box}
      onScroll={(e) => {
        const el = e.currentTarget;
        nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM_PX;
      }}
      className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto px-3 py-4 sm:px-4"
      role="log"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
      aria-label="Messages"
      aria-live="polite"
    >
      {canLoadEarlier ? (
        <Button
          variant="ghost"
          size="sm"
          className="self-center"
          onClick={onLoadEarlier}
          disabled={loadingEarlier}
        >
          {loadingEarlier ? <Spinner /> : null}
          Load earlier messages
        </Button>
      ) : null}
      {messages.map((m) => {
        if (m.kind === 'system') {
          return (
            <p
              key={m.id}
              className="self-center px-2 text-center text-xs italic text-muted-foreground"
              data-testid="comms-system-message"
            >
              {m.text}
            </p>
          );
        }
        const own = m.sender_id === meId;
        return (
          <div
            key={m.id}
            data-testid="comms-message"
            data-message-id={m.id}
            data-own={own ? 'true' : 'false'}
            aria-current={m.id === highlightId || undefined}
            className={cn(
              'flex max-w-[85%] flex-col gap-0.5 sm:max-w-[70%]',
              own ? 'items-end self-end' : 'items-start self-start',
              m.id === highlightId && 'rounded-2xl ring-2 ring-primary/70 ring-offset-2 ring-offset-card',
            )}
          >
            {!own ? <span className="px-1 text-xs text-muted-foreground">{m.sender_name}</span> : null}
            <div
              className={cn(
                'whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-sm',
                own
                  ? 'rounded-br-sm bg-primary text-primary-foreground'
                  : 'rounded-bl-sm bg-secondary text-secondary-foreground',
              )}
            >
              {m.text}
            </div>
            <span className="flex items-center gap-1 px-1 text-[11px] text-muted-foreground">
              {m.ai_suggested ? (
                <>
                  <Sparkles aria-hidden="true" className="size-3" />
                  <span>AI-assisted ·</span>
                </>
              ) : null}
              <time dateTime={m.timestamp}>{timeOf(m.timestamp)}</time>
            </span>
          </div>
        );
      })}
    </div>
  );
}
