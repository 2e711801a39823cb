import { type FormEvent, useId, useState } from 'react';
import { Markdown } from '../../../components/markdown/markdown';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/utils';

export const ANSWER_REQUIRED = 'An answer is required';
/** What Approve sends: the built-in approval steps ask for "yes" or the changes wanted. */
export const APPROVE_ANSWER = 'yes';

/**
 * The run's question for a person, below what it asks about (the previous step's output, as markdown);
 * Approve or a written answer continues the run (POST .../continue {user_input}).
 */
export function HumanPrompt({
  prompt,
  previousOutput = null,
  pending,
  onAnswer,
  compact = false,
}: {
  prompt: string;
  previousOutput?: string | null;
  pending: boolean;
  onAnswer: (answer: string) => void;
  /** A phone: shown inline above the composer, so everything is shorter (the output scrolls). */
  compact?: boolean;
}) {
  const id = useId();
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!answer.trim()) return setError(ANSWER_REQUIRED);
    setError(null);
    onAnswer(answer.trim());
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Answer the run's question"
      className={cn(
        'flex flex-col rounded-lg border border-[#854d0e] bg-[#2d1f05]/60',
        compact ? 'gap-1.5 p-2' : 'gap-2 p-3',
      )}
    >
      <p className={cn('font-medium text-[#fcd34d]', compact ? 'text-xs' : 'text-sm')}>
        Your input is needed
      </p>
      {previousOutput ? (
        <section
          aria-label="What the question is about"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
          tabIndex={0}
          className={cn(
            'overflow-y-auto rounded-md border border-border bg-card p-2 focus-visible:outline-2 focus-visible:outline-ring',
            compact ? 'max-h-28' : 'max-h-64',
          )}
        >
          <Markdown content={previousOutput} className="text-sm" />
        </section>
      ) : null}
      <label htmlFor={id} className="text-sm whitespace-pre-wrap">
        {prompt}
      </label>
      {/* On a phone the answer box and its buttons share one row, so the question keeps its room. */}
      <div className={cn('flex gap-2', compact ? 'items-end' : 'flex-col')}>
        <Textarea
          id={id}
          value={answer}
          rows={compact ? 1 : 2}
          className={compact ? 'min-h-9 flex-1 py-1.5' : undefined}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setAnswer(e.target.value);
            if (error) setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="flex shrink-0 flex-wrap justify-end gap-2">
          <Button
            type="button"
            size="sm"
            variant="secondary"
            disabled={pending}
            onClick={() => {
              setError(null);
              onAnswer(APPROVE_ANSWER);
            }}
          >
            Approve
          </Button>
          <Button type="submit" size="sm" disabled={pending}>
            {pending ? <Spinner /> : null}
            Answer
          </Button>
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-xs font-medium text-danger-text">
          {error}
        </p>
      ) : null}
    </form>
  );
}
