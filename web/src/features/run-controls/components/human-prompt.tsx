import { type FormEvent, useId, useState } from 'react';
import { Markdown } from '../../../components/markdown/markdown';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';

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
}: {
  prompt: string;
  previousOutput?: string | null;
  pending: boolean;
  onAnswer: (answer: string) => void;
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
      className="flex flex-col gap-2 rounded-lg border border-[#854d0e] bg-[#2d1f05]/60 p-3"
    >
      <p className="text-sm font-medium text-[#fcd34d]">Your input is needed</p>
      {previousOutput ? (
        <section
          aria-label="What the question is about"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
          tabIndex={0}
          className="max-h-64 overflow-y-auto rounded-md border border-border bg-card p-2 focus-visible:outline-2 focus-visible:outline-ring"
        >
          <Markdown content={previousOutput} className="text-sm" />
        </section>
      ) : null}
      <label htmlFor={id} className="text-sm whitespace-pre-wrap">
        {prompt}
      </label>
      <Textarea
        id={id}
        value={answer}
        rows={2}
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
      {error ? (
        <p role="alert" className="text-xs font-medium text-danger-text">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
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
    </form>
  );
}
