import { ChevronDown, Sparkles } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { CitationChips } from '../../../components/citation-chips';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/utils';
import type { Suggestion } from '../api';

export const SUGGESTION_TITLE = 'AI suggestion available...';

/** The collapsible "AI suggestion available..." panel: editable text, Ignore and Use Suggestion. */
export function SuggestionPanel({
  suggestion,
  busy,
  onIgnore,
  onUse,
}: {
  suggestion: Suggestion;
  busy: 'use' | 'ignore' | null;
  onIgnore: () => void;
  onUse: (text: string) => void;
}) {
  const [open, setOpen] = useState(true);
  const [text, setText] = useState(suggestion.text);
  const panelId = useId();
  const fieldId = useId();
  // A new suggestion replaces the draft.
  useEffect(() => setText(suggestion.text), [suggestion.text]);

  return (
    <section aria-label="AI suggestion" className="border-t border-border bg-primary/5">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center gap-2 px-4 py-2 text-left text-sm font-medium text-primary focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
      >
        <Sparkles aria-hidden="true" className="size-4" />
        <span className="flex-1">{SUGGESTION_TITLE}</span>
        <ChevronDown aria-hidden="true" className={cn('size-4 transition-transform', open && 'rotate-180')} />
      </button>
      {open ? (
        <div id={panelId} className="flex flex-col gap-2 px-4 pb-3">
          <label htmlFor={fieldId} className="sr-only">
            Suggested reply
          </label>
          <Textarea
            id={fieldId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={4000}
          />
          {suggestion.context ? <p className="text-xs text-muted-foreground">{suggestion.context}</p> : null}
          <CitationChips citations={suggestion.citations ?? []} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" size="sm" onClick={onIgnore} disabled={busy !== null}>
              {busy === 'ignore' ? <Spinner /> : null}
              Ignore
            </Button>
            <Button size="sm" onClick={() => onUse(text)} disabled={busy !== null || text.trim() === ''}>
              {busy === 'use' ? <Spinner /> : null}
              Use Suggestion
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
