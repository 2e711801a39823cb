import type { TAdvice } from '@cc/contract';
import { Lightbulb, Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Markdown, preloadMarkdown } from '../../../components/markdown/markdown';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { useAuth } from '../../../lib/auth';
import { notify } from '../../../lib/toast';
import { useSaveAdviceFeedback } from '../../../lib/queries/advice';
import { useAdviceRun, useGenerateAdvice, useLatestAdvice } from '../api';
import { formatDay } from '../../../lib/format';

function AdviceFeedback({ advice }: { advice: TAdvice }) {
  const save = useSaveAdviceFeedback();
  const [text, setText] = useState(advice.feedback ?? '');
  useEffect(() => setText(advice.feedback ?? ''), [advice.feedback]);
  const changed = text !== (advice.feedback ?? '');

  const onSave = () =>
    save.mutate(
      { id: advice.id, feedback: text },
      {
        onSuccess: () => notify.success('Feedback saved'),
        onError: (err) => notify.error('Could not save feedback', err.message),
      },
    );

  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor="dashboard-advice-feedback">Your feedback</Label>
      <Textarea
        id="dashboard-advice-feedback"
        value={text}
        onChange={(e) => setText(e.target.value)}
        readOnly={!advice.can_edit}
        placeholder={advice.can_edit ? 'What do you think of this advice?' : undefined}
      />
      {advice.can_edit ? (
        <Button className="w-fit" size="sm" onClick={onSave} disabled={save.isPending || !changed}>
          {save.isPending ? <Spinner /> : null}
          Save feedback
        </Button>
      ) : null}
    </div>
  );
}

export function AdviceCard() {
  const { user } = useAuth();
  const advice = useLatestAdvice();
  const generate = useGenerateAdvice();
  const [runId, setRunId] = useState<string | null>(null);
  const run = useAdviceRun(runId);
  const generating = generate.isPending || runId !== null;
  // The advice is markdown: get the renderer ready while the advice loads (not when none is known).
  const noAdvice = advice.data === null;
  useEffect(() => {
    if (!noAdvice) void preloadMarkdown();
  }, [noAdvice]);

  // The run ends: the advice query was refreshed by useAdviceRun, so the new advice is on screen.
  useEffect(() => {
    if (!runId) return;
    if (run.isError) {
      notify.error('Advice generation failed', run.error.message);
      setRunId(null);
    } else if (run.data?.id === runId && run.data.status === 'completed') {
      notify.success('New strategic advice is ready');
      setRunId(null);
    } else if (run.data?.id === runId && run.data.status === 'failed') {
      notify.error('Advice generation failed', run.data.error ?? undefined);
      setRunId(null);
    }
  }, [runId, run.data, run.isError, run.error]);

  const onGenerate = () => {
    if (!user) return;
    generate.mutate(user.id, {
      onSuccess: (started) => {
        notify.info('Advice generation started');
        if (started?.id) setRunId(started.id);
      },
      onError: (err) => notify.error('Error starting advice flow', err.message),
    });
  };

  return (
    <Card className="flex flex-col lg:col-span-2">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Lightbulb className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Strategic Advice</CardTitle>
        </div>
        <Button variant="secondary" size="sm" onClick={onGenerate} disabled={generating || !user}>
          {generating ? <Spinner /> : <Sparkles aria-hidden="true" />}
          Generate Advice
        </Button>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        {runId ? (
          <p
            role="status"
            className="flex items-center gap-2 rounded-md border border-primary/30 bg-primary/10 px-3 py-2 text-sm"
          >
            <Spinner />
            Analysing your goals, KPIs and tasks… the new advice appears here when it is ready.
          </p>
        ) : null}
        {advice.isPending ? (
          <div className="flex flex-col gap-2" role="status">
            <span className="sr-only">Loading advice…</span>
            <Skeleton className="h-5 w-48" />
            <Skeleton className="h-24" />
          </div>
        ) : advice.isError ? (
          <Alert>Could not load advice: {advice.error.message}</Alert>
        ) : !advice.data ? (
          <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
            No strategic advice available. Click "Generate Advice" to begin analysis.
          </p>
        ) : (
          <article className="flex flex-col gap-4" aria-label="Latest strategic advice">
            <div className="flex flex-col gap-1">
              {advice.data.advice_title ? (
                <h3 className="font-semibold break-words">{advice.data.advice_title}</h3>
              ) : null}
              <p className="text-xs text-muted-foreground">{formatDay(advice.data.created_at)}</p>
            </div>
            {/* Scrollable, so it takes keyboard focus (axe: scrollable-region-focusable). */}
            <section
              aria-label="Advice content"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
              tabIndex={0}
              className="max-h-96 overflow-y-auto rounded-md focus-visible:outline-2 focus-visible:outline-ring"
            >
              <Markdown content={advice.data.content} className="text-sm" />
            </section>
            <AdviceFeedback key={advice.data.id} advice={advice.data} />
          </article>
        )}
      </CardContent>
    </Card>
  );
}
