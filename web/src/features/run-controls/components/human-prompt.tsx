import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';

export const ANSWER_REQUIRED = 'An answer is required';

/** The run's question for a person; the answer continues the run (POST .../continue {user_input}). */
export function HumanPrompt({
  prompt,
  pending,
  onAnswer,
}: {
  prompt: string;
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
      <label htmlFor={id} className="text-sm whitespace-pre-wrap">
        {prompt}
      </label>
      <Textarea
        id={id}
        value={answer}
        aria-invalid={error ? true : undefined}
        onChange={(e) => setAnswer(e.target.value)}
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
      <Button type="submit" size="sm" className="self-end" disabled={pending}>
        {pending ? <Spinner /> : null}
        Continue
      </Button>
    </form>
  );
}
