import { ADVICE_PREVIEW_HEIGHT_PX, type TAdvice } from '@cc/contract';
import { Pencil, Trash2 } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { CitationChips } from '../../../components/citation-chips';
import { Markdown } from '../../../components/markdown/markdown';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { formatDay } from '../../../lib/format';
import { cn } from '../../../lib/utils';

/** Long content gets Show More / Show Less even before it can be measured (and in tests). */
const LONG_CONTENT_CHARS = 240;

interface AdviceItemProps {
  advice: TAdvice;
  feedbackPending: boolean;
  onSaveFeedback: (advice: TAdvice, feedback: string) => void;
  onEdit: (advice: TAdvice) => void;
  onDelete: (advice: TAdvice) => void;
  /** Opened from a link (`?advice=<id>`, a citation chip): scrolled to, expanded and marked. */
  highlighted?: boolean;
}

export function AdviceItem({
  advice,
  feedbackPending,
  onSaveFeedback,
  onEdit,
  onDelete,
  highlighted = false,
}: AdviceItemProps) {
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(
    advice.content.length > LONG_CONTENT_CHARS || advice.content.split('\n').length > 4,
  );
  const contentRef = useRef<HTMLDivElement>(null);
  const [feedback, setFeedback] = useState(advice.feedback ?? '');
  useEffect(() => setFeedback(advice.feedback ?? ''), [advice.feedback]);
  const title = advice.advice_title || 'Strategic advice';
  const contentId = `advice-${advice.id}-content`;
  const itemId = `advice-${advice.id}`;

  // A linked item is read in full where it stands in the list (scrollIntoView is absent in jsdom).
  useEffect(() => {
    if (!highlighted) return;
    setExpanded(true);
    document.getElementById(itemId)?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [highlighted, itemId]);

  // Measure the rendered markdown: the toggle appears only when the preview cuts something off.
  useLayoutEffect(() => {
    const el = contentRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const check = () => {
      if (el.scrollHeight > ADVICE_PREVIEW_HEIGHT_PX + 1) setOverflows(true);
    };
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  return (
    <Card
      id={itemId}
      className={cn(
        'flex scroll-mt-20 flex-col gap-3 p-4 sm:p-5',
        highlighted && 'border-primary ring-2 ring-primary/60',
      )}
      role="article"
      aria-label={title}
      aria-current={highlighted || undefined}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h3 className="font-semibold break-words">{title}</h3>
          <p className="text-xs text-muted-foreground">{formatDay(advice.created_at)}</p>
        </div>
        {advice.can_edit ? (
          <div className="flex gap-1">
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={`Edit ${title}`}
              onClick={() => onEdit(advice)}
            >
              <Pencil aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={`Delete ${title}`}
              className="text-danger-text"
              onClick={() => onDelete(advice)}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        ) : null}
      </div>
      <div
        id={contentId}
        ref={contentRef}
        data-testid="advice-preview"
        className="relative overflow-hidden text-sm"
        style={expanded ? undefined : { maxHeight: ADVICE_PREVIEW_HEIGHT_PX }}
      >
        <Markdown content={advice.content} />
        {!expanded && overflows ? (
          <div className="pointer-events-none absolute inset-x-0 bottom-0 h-8 bg-gradient-to-t from-card to-transparent" />
        ) : null}
      </div>
      {overflows ? (
        <Button
          variant="link"
          size="sm"
          className="h-auto w-fit px-0"
          aria-expanded={expanded}
          aria-controls={contentId}
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? 'Show Less' : 'Show More'}
        </Button>
      ) : null}
      {/* Generated advice names its records (those this reader may see); hand-written advice has none. */}
      {advice.crew_run_id || advice.citations.length ? <CitationChips citations={advice.citations} /> : null}
      <div className="flex flex-col gap-2 border-t border-border/70 pt-3">
        <Label htmlFor={`advice-${advice.id}-feedback`} className="text-xs text-muted-foreground">
          Feedback
        </Label>
        {advice.can_edit ? (
          <>
            <Textarea
              id={`advice-${advice.id}-feedback`}
              value={feedback}
              onChange={(e) => setFeedback(e.target.value)}
              className="min-h-16"
            />
            <Button
              size="sm"
              variant="secondary"
              className="w-fit"
              disabled={feedbackPending || feedback === (advice.feedback ?? '')}
              onClick={() => onSaveFeedback(advice, feedback)}
            >
              {feedbackPending ? <Spinner /> : null}
              Save feedback
            </Button>
          </>
        ) : (
          <p
            id={`advice-${advice.id}-feedback`}
            className="text-sm whitespace-pre-wrap text-muted-foreground"
          >
            {advice.feedback || 'No feedback yet.'}
          </p>
        )}
      </div>
    </Card>
  );
}
