import {
  DEFAULT_GOAL_STATUS,
  DEFAULT_KPI_DIRECTION,
  GOAL_START_AFTER_DUE,
  GOAL_STATUSES,
  goalStatusLabel,
  KPI_DIRECTION_LABELS,
  KPI_DIRECTIONS,
  MAX_KPIS_PER_GOAL,
  type TCreateGoalRequest,
  type TGoal,
  type TGoalStatus,
  type TKpiDirection,
  type TOrganization,
} from '@cc/contract';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { fieldA11y, FormField } from '../../../components/form-field';
import { StaleVersionBanner } from '../../../components/stale-version-banner';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { useValidationMessage } from '../../../lib/use-validation-message';
import { GoalTasks } from './goal-tasks';
import { KpiStaleMark, KpiTrend } from './kpi-trend';

interface KpiRow {
  kpiId: string | null;
  name: string;
  current_value: string;
  target_value: string;
  unit: string;
  direction: TKpiDirection;
}

export interface GoalFormValues {
  title: string;
  description: string;
  /** Blank on a new goal: it starts the day it is created. */
  start_date: string;
  due_date: string;
  status: TGoalStatus;
  organization_id: string;
  kpis: KpiRow[];
}

/** Spec section 5, word for word (the same text as the contract's GOAL_REQUIRED_MESSAGE). */
export const GOAL_REQUIRED_TEXT = 'Title and Due Date are required.';

const emptyKpi = (): KpiRow => ({
  kpiId: null,
  name: '',
  current_value: '',
  target_value: '',
  unit: '',
  direction: DEFAULT_KPI_DIRECTION,
});

function toValues(goal: TGoal | null): GoalFormValues {
  if (!goal)
    return {
      title: '',
      description: '',
      start_date: '',
      due_date: '',
      status: DEFAULT_GOAL_STATUS,
      organization_id: '',
      kpis: [],
    };
  return {
    title: goal.title,
    description: goal.description ?? '',
    start_date: goal.start_date.slice(0, 10),
    due_date: goal.due_date.slice(0, 10),
    status: goal.status,
    organization_id: goal.organization_id ?? '',
    kpis: goal.kpis.map((k) => ({
      kpiId: k.id,
      name: k.name,
      current_value: String(k.current_value),
      target_value: k.target_value === null ? '' : String(k.target_value),
      unit: k.unit ?? '',
      direction: k.direction,
    })),
  };
}

/** The request body: blank KPI rows are dropped; KPI values go as typed (the server reads numbers). */
export function goalBody(v: GoalFormValues): TCreateGoalRequest {
  return {
    title: v.title.trim(),
    description: v.description.trim() || null,
    ...(v.start_date.trim() ? { start_date: v.start_date.trim() } : {}),
    due_date: v.due_date,
    status: v.status,
    organization_id: v.organization_id || null,
    kpis: v.kpis
      .filter((k) => k.name.trim() || k.current_value.trim() || k.target_value.trim() || k.unit.trim())
      .map((k) => ({
        ...(k.kpiId ? { id: k.kpiId } : {}),
        name: k.name.trim(),
        current_value: k.current_value.trim(),
        target_value: k.target_value.trim(),
        unit: k.unit.trim() || null,
        direction: k.direction,
      })),
  };
}

interface GoalDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The goal being edited, or null to create one. */
  goal: TGoal | null;
  organizations: readonly TOrganization[];
  pending: boolean;
  onSubmit: (values: GoalFormValues) => void;
  /** The goal as stored now, after a save was refused because it changed since the form opened. */
  stale?: TGoal | null;
  onUseTheirs?: () => void;
}

export function GoalDialog({
  open,
  onOpenChange,
  goal,
  organizations,
  pending,
  onSubmit,
  stale,
  onUseTheirs,
}: GoalDialogProps) {
  const { register, control, handleSubmit, reset, watch } = useForm<GoalFormValues>({
    defaultValues: toValues(goal),
  });
  const kpis = useFieldArray({ control, name: 'kpis' });
  // Watched so the message is checked again (and goes) as the fields are fixed.
  const current = watch();
  const validation = useValidationMessage(() => goalProblem(current));
  const error = validation.message;
  const { clear } = validation;

  useEffect(() => {
    if (open) {
      reset(toValues(goal));
      clear();
    }
  }, [open, goal, reset, clear]);

  const submit = handleSubmit((values) => {
    if (validation.check()) return;
    onSubmit(values);
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{goal ? 'Edit goal' : 'New goal'}</DialogTitle>
          <DialogDescription>A goal with its KPIs; progress is the average of the KPIs.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {stale ? (
            <StaleVersionBanner
              fields={[
                ['Title', stale.title],
                ['Description', stale.description],
                ['Start date', stale.start_date.slice(0, 10)],
                ['Due date', stale.due_date.slice(0, 10)],
                ['Status', goalStatusLabel(stale.status)],
                [
                  'KPIs',
                  stale.kpis
                    .map(
                      (k) =>
                        `${k.name}: ${k.current_value}/${k.target_value ?? '–'}${k.direction === 'lower_is_better' ? ' (lower is better)' : ''}`,
                    )
                    .join('\n'),
                ],
              ]}
              onUseTheirs={() => onUseTheirs?.()}
            />
          ) : null}
          <FormField id="goal-title" label="Title">
            <Input id="goal-title" aria-required="true" {...register('title')} />
          </FormField>
          <FormField id="goal-description" label="Description">
            <Textarea id="goal-description" {...register('description')} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              id="goal-start-date"
              label="Start date"
              hint="Expected progress runs in a straight line from here to the due date. Blank: the day the goal is created."
            >
              <Input
                {...fieldA11y('goal-start-date', undefined, true)}
                type="date"
                {...register('start_date')}
              />
            </FormField>
            <FormField id="goal-due-date" label="Due date">
              <Input id="goal-due-date" type="date" aria-required="true" {...register('due_date')} />
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="goal-status" label="Status">
              <Select id="goal-status" {...register('status')}>
                {GOAL_STATUSES.map((s) => (
                  <option key={s} value={s} className="capitalize">
                    {goalStatusLabel(s)}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField id="goal-organization" label="Organization">
              <Select id="goal-organization" {...register('organization_id')}>
                <option value="">Personal (no organization)</option>
                {organizations.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </Select>
            </FormField>
          </div>

          <fieldset className="flex flex-col gap-3 rounded-lg border border-border p-3 sm:p-4">
            <legend className="px-1 text-sm font-medium">KPIs</legend>
            {kpis.fields.length === 0 ? (
              <p className="text-sm text-muted-foreground">No KPIs yet. Progress counts 0 without KPIs.</p>
            ) : null}
            {kpis.fields.map((field, i) => {
              const saved = goal?.kpis.find((k) => k.id === field.kpiId);
              return (
                <div
                  key={field.id}
                  className="grid grid-cols-2 items-end gap-2 border-b border-border/60 pb-3 last:border-b-0 last:pb-0 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.5fr)_auto]"
                >
                  <div className="col-span-2 flex flex-col gap-1.5 sm:col-span-1">
                    <Label htmlFor={`kpi-${i}-name`} className="text-xs">
                      KPI {i + 1} name
                    </Label>
                    <Input id={`kpi-${i}-name`} {...register(`kpis.${i}.name`)} />
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`kpi-${i}-current`} className="text-xs">
                      Current value<span className="sr-only"> of KPI {i + 1}</span>
                    </Label>
                    <Input
                      id={`kpi-${i}-current`}
                      inputMode="decimal"
                      {...register(`kpis.${i}.current_value`)}
                    />
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`kpi-${i}-target`} className="text-xs">
                      Target value<span className="sr-only"> of KPI {i + 1}</span>
                    </Label>
                    <Input
                      id={`kpi-${i}-target`}
                      inputMode="decimal"
                      {...register(`kpis.${i}.target_value`)}
                    />
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`kpi-${i}-unit`} className="text-xs">
                      Unit<span className="sr-only"> of KPI {i + 1}</span>
                    </Label>
                    <Input id={`kpi-${i}-unit`} {...register(`kpis.${i}.unit`)} />
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`kpi-${i}-direction`} className="text-xs">
                      Direction<span className="sr-only"> of KPI {i + 1}</span>
                    </Label>
                    <Select id={`kpi-${i}-direction`} {...register(`kpis.${i}.direction`)}>
                      {KPI_DIRECTIONS.map((d) => (
                        <option key={d} value={d}>
                          {KPI_DIRECTION_LABELS[d]}
                        </option>
                      ))}
                    </Select>
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove KPI ${i + 1}`}
                    onClick={() => kpis.remove(i)}
                    className="text-danger-text"
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                  {saved ? (
                    <div className="col-span-full flex items-center gap-3">
                      <KpiTrend kpi={saved} dueDate={goal?.due_date ?? saved.trend[0]?.date ?? ''} />
                      <KpiStaleMark kpi={saved} />
                    </div>
                  ) : null}
                </div>
              );
            })}
            <Button
              variant="outline"
              size="sm"
              className="w-fit"
              disabled={kpis.fields.length >= MAX_KPIS_PER_GOAL}
              onClick={() => kpis.append(emptyKpi())}
            >
              <Plus aria-hidden="true" />
              Add KPI
            </Button>
          </fieldset>
          {goal ? <GoalTasks goalId={goal.id} /> : null}

          {error ? (
            <p role="alert" className="text-sm font-medium text-danger-text">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              Save goal
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The first thing that keeps the goal from being saved, or null. */
function goalProblem(values: GoalFormValues): string | null {
  if (!values.title?.trim() || !values.due_date?.trim()) return GOAL_REQUIRED_TEXT;
  // The server refuses it too (422 on start_date); said here before the round trip.
  if (values.start_date?.trim() && values.start_date > values.due_date) return GOAL_START_AFTER_DUE;
  const named = (values.kpis ?? []).every(
    (k) => k.name.trim() || !(k.current_value.trim() || k.target_value.trim() || k.unit.trim()),
  );
  return named ? null : 'KPI name is required.';
}
