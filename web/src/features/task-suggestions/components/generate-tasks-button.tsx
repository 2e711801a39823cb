import {
  GENERATE_TASKS_FAILED,
  NO_NEW_SUGGESTIONS,
  TASKS_READY_RESET_MS,
  type TGenerateSuggestionsResponse,
} from '@cc/contract';
import { Check, Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/toast';
import { useGenerateSuggestions } from '../api';

export type GenerateState = 'idle' | 'generating' | 'done';

const LABELS: Record<GenerateState, string> = {
  idle: 'Generate tasks',
  generating: 'Generating tasks…',
  done: 'Tasks ready!',
};

/**
 * Generate tasks: idle → generating → done ("Tasks ready!") → idle again after 4 seconds (spec
 * sections 2 and 9). With no suggestion it goes straight back to idle beside the "No new suggestions"
 * toast; a failure is the "Failed to generate tasks" toast.
 */
export function GenerateTasksButton({
  onGenerated,
}: {
  onGenerated?: (r: TGenerateSuggestionsResponse) => void;
}) {
  const generate = useGenerateSuggestions();
  const [state, setState] = useState<GenerateState>('idle');

  useEffect(() => {
    if (state !== 'done') return;
    const timer = setTimeout(() => setState('idle'), TASKS_READY_RESET_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const onClick = () => {
    setState('generating');
    generate.mutate(undefined, {
      onSuccess: (res) => {
        // "Tasks ready!" only when there are tasks to review; with none the toast says so alone.
        setState(res.suggestions.length ? 'done' : 'idle');
        if (res.suggestions.length === 0) notify.info(NO_NEW_SUGGESTIONS);
        onGenerated?.(res);
      },
      onError: (err) => {
        setState('idle');
        notify.error(GENERATE_TASKS_FAILED, err.message);
      },
    });
  };

  return (
    <Button
      variant={state === 'done' ? 'secondary' : 'default'}
      onClick={onClick}
      disabled={state !== 'idle'}
      data-state={state}
      aria-live="polite"
    >
      {state === 'generating' ? (
        <Spinner />
      ) : state === 'done' ? (
        <Check aria-hidden="true" />
      ) : (
        <Sparkles aria-hidden="true" />
      )}
      {LABELS[state]}
    </Button>
  );
}
