import { formatRecent } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import type { Thread } from '../api';
import { Avatar } from './avatar';

export const COMMS_EMPTY_TEXT = 'No strategic conversations yet.';
export const NO_MESSAGES_TEXT = 'No messages yet';

/** A short time for today's messages, else the date. */
export const threadDate = (value: string, now = new Date()): string => formatRecent(value, now);

export const threadRole = (t: Thread) =>
  t.participants.length > 1 ? `${t.participants.length} participants` : (t.other_user_role ?? '');

/** Conversation threads, newest first (the server's order). */
export function ThreadList({
  threads,
  activeId,
  onSelect,
}: {
  threads: Thread[];
  activeId: string | null;
  onSelect: (id: string) => void;
}) {
  if (!threads.length) {
    return <p className="px-4 py-10 text-center text-sm text-muted-foreground">{COMMS_EMPTY_TEXT}</p>;
  }
  return (
    <ul className="flex flex-col" aria-label="Conversations">
      {threads.map((t) => {
        const role = threadRole(t);
        return (
          <li key={t.id}>
            <button
              type="button"
              onClick={() => onSelect(t.id)}
              aria-current={t.id === activeId ? 'true' : undefined}
              data-testid="comms-thread"
              className={cn(
                'flex w-full min-w-0 items-start gap-3 border-b border-border px-4 py-3 text-left transition-colors hover:bg-[#111b31] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
                t.id === activeId && 'bg-[#111b31]',
              )}
            >
              <Avatar name={t.name} />
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="flex items-baseline justify-between gap-2">
                  <span className="truncate font-medium">{t.name}</span>
                  <time dateTime={t.updated_at} className="shrink-0 text-xs text-muted-foreground">
                    {threadDate(t.updated_at)}
                  </time>
                </span>
                {role ? <span className="truncate text-xs text-muted-foreground">{role}</span> : null}
                <span className="flex items-center gap-2">
                  <span className="truncate text-sm text-muted-foreground">
                    {t.last_message_preview ?? NO_MESSAGES_TEXT}
                  </span>
                  {t.current_ai_suggestion_id ? (
                    <span className="shrink-0 rounded-full bg-primary/15 px-1.5 text-[10px] font-medium text-primary">
                      AI
                    </span>
                  ) : null}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
