import { useVirtualizer } from '@tanstack/react-virtual';
import { JumpToLatest } from '../../../components/jump-to-latest';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageStore } from '../message-store';
import { MessageItem } from './message-item';

/** Scrolled up more than this (px) from the bottom: the jump-to-latest button shows (spec section 9). */
export const NEAR_BOTTOM_PX = 50;

interface MessageLogProps {
  store: MessageStore;
  loading: boolean;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /**
   * Changes when the log must go to the latest message whatever the reader's place: a message was
   * sent (its reply is followed) or a run ended (its result is the latest message).
   */
  followSignal?: number;
}

/**
 * The virtualized message log: only the rows in view are mounted, each subscribed to its own message.
 * It follows the latest message while the reader is at the bottom and offers a jump back otherwise.
 */
export function MessageLog({
  store,
  loading,
  hasMore,
  loadingOlder,
  onLoadOlder,
  followSignal = 0,
}: MessageLogProps) {
  const ids = useSyncExternalStore(store.subscribeList, store.getIds);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [showJump, setShowJump] = useState(false);
  const firstId = useRef<string | undefined>(undefined);
  /** The scroll position last seen: only a move up is the reader leaving the bottom. */
  const lastTop = useRef(0);

  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 72,
    overscan: 6,
    getItemKey: (i) => ids[i],
    initialRect: { width: 800, height: 600 },
  });

  const toBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // A scroll event that lands after the reply has grown again reads as "far from the bottom" although
  // the reader never moved (the log stopped following with More Settings open): only scrolling up
  // leaves the bottom; reaching it again follows once more.
  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    const movedUp = el.scrollTop < lastTop.current - 1;
    lastTop.current = el.scrollTop;
    if (fromBottom <= NEAR_BOTTOM_PX) stick.current = true;
    else if (movedUp) stick.current = false;
    setShowJump(!stick.current && fromBottom > NEAR_BOTTOM_PX);
  };

  const total = virtualizer.getTotalSize();
  // New messages or a growing reply: stay at the bottom when the reader was there. Older messages
  // prepended at the top: keep the reader's place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `total` changes when rows are measured; follow it.
  useLayoutEffect(() => {
    const prevFirst = firstId.current;
    firstId.current = ids[0];
    if (prevFirst && ids[0] !== prevFirst) {
      const index = ids.indexOf(prevFirst);
      if (index > 0 && !stick.current) {
        virtualizer.scrollToIndex(index, { align: 'start' });
        return;
      }
    }
    if (stick.current) toBottom();
  }, [ids, total, toBottom, virtualizer]);

  // The streaming row grows without changing the list, and the log itself shrinks when a panel opens
  // below it (More Settings, a run): follow the latest message while at the bottom.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const inner = el.firstElementChild;
    const ro = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    ro.observe(el);
    if (inner) ro.observe(inner);
    return () => ro.disconnect();
  }, [toBottom]);

  // A new signal (a sent message, a run's end): back to the bottom, following again.
  useLayoutEffect(() => {
    if (followSignal === 0) return;
    stick.current = true;
    setShowJump(false);
    toBottom();
  }, [followSignal, toBottom]);

  const jump = () => {
    stick.current = true;
    setShowJump(false);
    if (ids.length > 0) virtualizer.scrollToIndex(ids.length - 1, { align: 'end' });
    toBottom();
  };

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scrollRef}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto px-1"
        role="log"
        aria-label="Messages"
        aria-busy={loading}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard (axe scrollable-region-focusable).
        tabIndex={0}
      >
        <div>
          {hasMore ? (
            <div className="flex justify-center py-2">
              <Button variant="ghost" size="sm" onClick={onLoadOlder} disabled={loadingOlder}>
                {loadingOlder ? <Spinner /> : null}
                Load older messages
              </Button>
            </div>
          ) : null}
          {loading ? (
            <p className="py-10 text-center text-sm text-muted-foreground">Loading messages...</p>
          ) : ids.length === 0 ? (
            <p className="py-10 text-center text-sm text-muted-foreground">Start a new conversation</p>
          ) : (
            <div className="relative w-full" style={{ height: total }}>
              {virtualizer.getVirtualItems().map((row) => (
                <div
                  key={row.key}
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  className="absolute top-0 left-0 w-full"
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  <MessageItem id={ids[row.index]} store={store} />
                </div>
              ))}
            </div>
          )}
        </div>
      </div>
      {showJump ? <JumpToLatest onClick={jump} /> : null}
    </div>
  );
}
