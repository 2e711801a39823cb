import { Sparkles } from 'lucide-react';
import { JumpToLatest } from '../../../components/jump-to-latest';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import type { Message } from '../api';
import { formatDateTime } from '../../../lib/format';

/** Spec section 9: the near-bottom scroll threshold is 50 px. */
const NEAR_BOTTOM_PX = 50;

const timeOf = (iso: string) => formatDateTime(iso);

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
  /** Following the latest message: true while the reader is at the bottom (as in the conversation log). */
  const stick = useRef(true);
  const lastTop = useRef(0);
  const [showJump, setShowJump] = useState(false);
  const last = messages.at(-1);
  const lastId = last?.id;
  const lastIsOwn = last !== undefined && last.sender_id === meId;

  const toBottom = useCallback(() => {
    const el = box.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  }, []);

  // A new last message: followed while at the bottom, and always when it is one's own (just sent);
  // otherwise the reader keeps their place and "Latest" offers the way down. Loading earlier
  // messages changes no last message and keeps the reader's place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the last message changes
  useLayoutEffect(() => {
    if (lastIsOwn) stick.current = true;
    if (stick.current) {
      toBottom();
      setShowJump(false);
    } else if (lastId) setShowJump(true);
  }, [lastId]);

  // The log shrinks when a panel opens below it (a reply suggestion) and its content grows: a reader
  // at the bottom stays there, so a message arriving with the panel open is in view above it.
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [toBottom]);

  const highlightShown = highlightId !== null && messages.some((m) => m.id === highlightId);
  // Runs after the follow-the-bottom scroll above, so the linked message wins (no scrollIntoView in jsdom).
  useLayoutEffect(() => {
    if (!highlightShown || !highlightId) return;
    stick.current = false;
    const rows = box.current?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [];
    [...rows].find((el) => el.dataset.messageId === highlightId)?.scrollIntoView?.({ block: 'center' });
  }, [highlightShown, highlightId]);

  // Only scrolling up leaves the bottom (a resize's scroll event does not); reaching it follows again.
  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    const movedUp = el.scrollTop < lastTop.current - 1;
    lastTop.current = el.scrollTop;
    if (fromBottom <= NEAR_BOTTOM_PX) stick.current = true;
    else if (movedUp) stick.current = false;
    setShowJump(!stick.current && fromBottom > NEAR_BOTTOM_PX);
  };

  const jump = () => {
    stick.current = true;
    setShowJump(false);
    toBottom();
  };

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={box}
        onScroll={onScroll}
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
      {showJump ? <JumpToLatest onClick={jump} /> : null}
    </div>
  );
}
