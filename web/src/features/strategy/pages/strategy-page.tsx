import type { TAdvice, TGoal, TKpi, TKpiCheckinRequest } from '@cc/contract';
import { Lightbulb, Plus, Target } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { notify } from '../../../lib/toast';
import { useSaveAdviceFeedback } from '../../../lib/queries/advice';
import { useOrganizations } from '../../../lib/queries/organizations';
import {
  DEFAULT_GOAL_FILTERS,
  type GoalFilters as Filters,
  readAdvice,
  readGoal,
  readGoalOfKpi,
  useAdviceList,
  useDeleteAdvice,
  useDeleteGoal,
  useGoals,
  useSaveAdvice,
  useRecordCheckin,
  useSaveGoal,
} from '../api';
import { AdviceDialog } from '../components/advice-dialog';
import { AdviceItem } from '../components/advice-item';
import { GoalCard } from '../components/goal-card';
import { KpiCheckinDialog } from '../components/kpi-checkin-dialog';
import { GoalDialog, type GoalFormValues, goalBody } from '../components/goal-dialog';
import { GoalReadDialog } from '../components/goal-read-dialog';
import { GoalFilters } from '../components/goal-filters';
import { useDebounced } from '../../../lib/use-debounced';
import { useLinkedRecord } from '../../../lib/use-linked-record';
import { useStaleVersion } from '../../../lib/use-stale-version';

function ListSkeleton({ label }: { label: string }) {
  return (
    <div className="flex flex-col gap-3" role="status">
      <span className="sr-only">{label}</span>
      <Skeleton className="h-32" />
      <Skeleton className="h-32" />
    </div>
  );
}

function Empty({ children }: { children: string }) {
  return (
    <p className="rounded-md border border-dashed border-border px-4 py-10 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}

export default function StrategyPage() {
  const [filters, setFilters] = useState<Filters>(DEFAULT_GOAL_FILTERS);
  const search = useDebounced(filters.search);
  const goals = useGoals({ ...filters, search });
  const advice = useAdviceList();
  const orgs = useOrganizations();
  const organizations = orgs.data ?? [];

  const saveGoal = useSaveGoal();
  const recordCheckin = useRecordCheckin();
  const [checkingIn, setCheckingIn] = useState<{ goal: TGoal; kpi: TKpi } | null>(null);
  const deleteGoal = useDeleteGoal();
  const saveAdvice = useSaveAdvice();
  const deleteAdvice = useDeleteAdvice();
  const saveFeedback = useSaveAdviceFeedback();

  const [goalDialog, setGoalDialog] = useState<{ goal: TGoal | null } | null>(null);
  const [deletingGoal, setDeletingGoal] = useState<TGoal | null>(null);
  const [adviceDialog, setAdviceDialog] = useState<{ advice: TAdvice | null } | null>(null);
  const [deletingAdvice, setDeletingAdvice] = useState<TAdvice | null>(null);
  const [feedbackId, setFeedbackId] = useState<string | null>(null);
  const [linkedAdvice, setLinkedAdvice] = useState<TAdvice | null>(null);

  // Citation links: ?goal= and ?kpi= open the goal to read (Edit opens its dialog), ?advice= marks
  // the item in the list.
  const [readingGoal, setReadingGoal] = useState<TGoal | null>(null);
  useLinkedRecord('goal', 'goal', readGoal, setReadingGoal);
  useLinkedRecord('kpi', 'KPI', readGoalOfKpi, setReadingGoal);
  useLinkedRecord('advice', 'advice', readAdvice, setLinkedAdvice);

  const staleGoal = useStaleVersion(readGoal);
  const staleAdvice = useStaleVersion(readAdvice);
  const closeGoalDialog = () => {
    staleGoal.clear();
    setGoalDialog(null);
  };
  const closeAdviceDialog = () => {
    staleAdvice.clear();
    setAdviceDialog(null);
  };

  const onSaveGoal = (values: GoalFormValues) => {
    const goal = goalDialog?.goal;
    saveGoal.mutate(
      { id: goal?.id, body: goalBody(values), ifMatch: goal ? staleGoal.version(goal) : undefined },
      {
        onSuccess: () => {
          closeGoalDialog();
          notify.success('Goal saved');
        },
        onError: async (err) => {
          // A refused save (changed meanwhile) shows both versions in the dialog instead.
          if (goal && (await staleGoal.onSaveError(err, goal.id))) return;
          notify.error('Could not save the goal', err.message);
        },
      },
    );
  };

  const onCheckIn = (body: TKpiCheckinRequest) => {
    if (!checkingIn) return;
    recordCheckin.mutate(
      { goalId: checkingIn.goal.id, kpiId: checkingIn.kpi.id, body },
      {
        onSuccess: () => {
          setCheckingIn(null);
          notify.success('Check-in saved');
        },
        onError: (err) => notify.error('Could not save the check-in', err.message),
      },
    );
  };

  const onDeleteGoal = () => {
    if (!deletingGoal) return;
    deleteGoal.mutate(deletingGoal.id, {
      onSuccess: () => {
        setDeletingGoal(null);
        notify.success('Goal deleted');
      },
      onError: (err) => notify.error('Could not delete the goal', err.message),
    });
  };

  const onSaveAdvice = (body: Parameters<typeof saveAdvice.mutate>[0]['body']) => {
    const advice = adviceDialog?.advice;
    saveAdvice.mutate(
      { id: advice?.id, body, ifMatch: advice ? staleAdvice.version(advice) : undefined },
      {
        onSuccess: () => {
          closeAdviceDialog();
          notify.success('Advice saved');
        },
        onError: async (err) => {
          if (advice && (await staleAdvice.onSaveError(err, advice.id))) return;
          notify.error('Could not save the advice', err.message);
        },
      },
    );
  };

  const onDeleteAdvice = () => {
    if (!deletingAdvice) return;
    deleteAdvice.mutate(deletingAdvice.id, {
      onSuccess: () => {
        if (linkedAdvice?.id === deletingAdvice.id) setLinkedAdvice(null);
        setDeletingAdvice(null);
        notify.success('Advice deleted');
      },
      onError: (err) => notify.error('Could not delete the advice', err.message),
    });
  };

  const onSaveFeedback = (a: TAdvice, feedback: string) => {
    setFeedbackId(a.id);
    saveFeedback.mutate(
      { id: a.id, feedback },
      {
        onSuccess: () => notify.success('Feedback saved'),
        onError: (err) => notify.error('Could not save feedback', err.message),
        onSettled: () => setFeedbackId(null),
      },
    );
  };

  const goalList = goals.data ?? [];
  const loadedAdvice = advice.data ?? [];
  // A linked item beyond the loaded page is shown on top, so the link always shows it.
  const adviceList =
    linkedAdvice && !loadedAdvice.some((a) => a.id === linkedAdvice.id)
      ? [linkedAdvice, ...loadedAdvice]
      : loadedAdvice;

  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title="Strategy Center"
        description="Strategic goals with their KPIs and progress, and the advice that shapes them."
      />

      <section aria-labelledby="goals-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="goals-heading" className="flex items-center gap-2 text-lg font-semibold">
            <Target className="size-5 text-primary" aria-hidden="true" />
            Strategic Goals
          </h2>
          <Button onClick={() => setGoalDialog({ goal: null })}>
            <Plus aria-hidden="true" />
            New goal
          </Button>
        </div>
        <Card className="p-4 sm:p-5">
          <GoalFilters value={filters} onChange={setFilters} organizations={organizations} />
        </Card>
        {goals.isPending ? (
          <ListSkeleton label="Loading goals…" />
        ) : goals.isError ? (
          <Alert>Could not load goals: {goals.error.message}</Alert>
        ) : goalList.length === 0 ? (
          <Empty>
            {filters.search.trim() || filters.status || filters.organizationId
              ? 'No strategic goals match the current filters.'
              : 'No strategic goals defined yet.'}
          </Empty>
        ) : (
          <div className="grid gap-4 xl:grid-cols-2" aria-busy={goals.isFetching}>
            {goalList.map((g) => (
              <GoalCard
                key={g.id}
                goal={g}
                onEdit={(goal) => setGoalDialog({ goal })}
                onDelete={setDeletingGoal}
                onCheckIn={(goal, kpi) => setCheckingIn({ goal, kpi })}
              />
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="advice-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="advice-heading" className="flex items-center gap-2 text-lg font-semibold">
            <Lightbulb className="size-5 text-primary" aria-hidden="true" />
            Strategic Advice
          </h2>
          <Button variant="secondary" onClick={() => setAdviceDialog({ advice: null })}>
            <Plus aria-hidden="true" />
            New advice
          </Button>
        </div>
        {advice.isPending ? (
          <ListSkeleton label="Loading advice…" />
        ) : advice.isError ? (
          <Alert>Could not load advice: {advice.error.message}</Alert>
        ) : adviceList.length === 0 ? (
          <Empty>No strategic advice yet.</Empty>
        ) : (
          <div className="flex flex-col gap-4">
            {adviceList.map((a) => (
              <AdviceItem
                key={a.id}
                advice={a}
                highlighted={a.id === linkedAdvice?.id}
                feedbackPending={feedbackId === a.id}
                onSaveFeedback={onSaveFeedback}
                onEdit={(item) => setAdviceDialog({ advice: item })}
                onDelete={setDeletingAdvice}
              />
            ))}
          </div>
        )}
      </section>

      <GoalReadDialog
        goal={readingGoal}
        onClose={() => setReadingGoal(null)}
        onEdit={(goal) => {
          setReadingGoal(null);
          setGoalDialog({ goal });
        }}
      />
      <GoalDialog
        open={goalDialog !== null}
        onOpenChange={(open) => !open && closeGoalDialog()}
        goal={goalDialog?.goal ?? null}
        organizations={organizations}
        pending={saveGoal.isPending}
        onSubmit={onSaveGoal}
        stale={staleGoal.fresh}
        onUseTheirs={() => {
          // The form resets to the goal it is given: the fresh one.
          if (staleGoal.fresh) setGoalDialog({ goal: staleGoal.fresh });
          staleGoal.clear();
        }}
      />
      <KpiCheckinDialog
        kpi={checkingIn?.kpi ?? null}
        pending={recordCheckin.isPending}
        onClose={() => setCheckingIn(null)}
        onSubmit={onCheckIn}
      />
      <ConfirmDialog
        open={deletingGoal !== null}
        onOpenChange={(open) => !open && setDeletingGoal(null)}
        title="Delete goal?"
        description={
          deletingGoal
            ? `"${deletingGoal.title}" and its KPIs will be deleted. This action cannot be undone.`
            : ''
        }
        confirmLabel="Delete goal"
        pending={deleteGoal.isPending}
        onConfirm={onDeleteGoal}
      />
      <AdviceDialog
        open={adviceDialog !== null}
        onOpenChange={(open) => !open && closeAdviceDialog()}
        advice={adviceDialog?.advice ?? null}
        organizations={organizations}
        pending={saveAdvice.isPending}
        onSubmit={onSaveAdvice}
        stale={staleAdvice.fresh}
        onUseTheirs={() => {
          if (staleAdvice.fresh) setAdviceDialog({ advice: staleAdvice.fresh });
          staleAdvice.clear();
        }}
      />
      <ConfirmDialog
        open={deletingAdvice !== null}
        onOpenChange={(open) => !open && setDeletingAdvice(null)}
        title="Delete advice?"
        description="This advice and its feedback will be deleted. This action cannot be undone."
        confirmLabel="Delete advice"
        pending={deleteAdvice.isPending}
        onConfirm={onDeleteAdvice}
      />
    </div>
  );
}
