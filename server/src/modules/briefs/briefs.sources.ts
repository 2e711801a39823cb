import { runUrl } from '@cc/contract';
import { loadViewer, type Viewer } from '../../platform/viewer.ts';
import type { AppContext } from '../../platform/context.ts';
import { messagesOfUserBetween, threadsAwaitingReply } from '../comms/comms.service.ts';
import { openGoalsFor } from '../goals/goals.service.ts';
import { runsFailedBetween, runsFinishedBetween } from '../runs/runs.service.ts';
import { attentionTasksOf } from '../tasks/tasks.service.ts';
import {
  type FactEvidence,
  type FactFailedRun,
  type FactGoal,
  type FactInput,
  movedGoalIds,
  REPLY_AFTER_HOURS,
} from './briefs.facts.ts';
import { doneTasksOfGoals, kpiHistory } from './briefs.kpi-history.ts';
import { itemsWaitingFor } from './briefs.waiting.ts';

/** Bounds of every read (each list of the brief names at most `items` records). */
export const BRIEF_LIMITS = {
  goalsPerBranch: 40,
  kpisPerGoal: 20,
  items: 10,
  threadsScanned: 200,
  runs: 50,
  messages: 500,
};

const mentions = (text: string | null, goal: FactGoal) =>
  text !== null && (text.toLowerCase().includes(goal.title.toLowerCase()) || text.includes(goal.id));

/**
 * Everything the facts are computed from, read through the domain services with the person's own
 * visibility: goals through the goal policy, tasks they are assignee or creator of, their own runs and
 * suggestions, threads they take part in. Nothing here can name a record the person may not see.
 */
export async function loadFactInput(
  ctx: AppContext,
  userId: string,
  period: { start: string; end: string },
  now: Date,
): Promise<FactInput> {
  const today = now.toISOString().slice(0, 10);
  const viewer = await loadViewer(ctx, { id: userId });
  const replyBefore = new Date(now.getTime() - REPLY_AFTER_HOURS * 3_600_000).toISOString();
  const [goalRes, tasks, waiting, threads, failedRuns] = await Promise.all([
    openGoalsFor(ctx, viewer, {
      perBranch: BRIEF_LIMITS.goalsPerBranch,
      kpisPerGoal: BRIEF_LIMITS.kpisPerGoal,
      today,
    }),
    attentionTasksOf(ctx, userId, today, BRIEF_LIMITS.items),
    itemsWaitingFor(ctx, userId),
    threadsAwaitingReply(ctx, userId, replyBefore, BRIEF_LIMITS.threadsScanned),
    failedRunsOf(ctx, userId, period),
  ]);
  // Progress and risk as the goals API presents them (contract goal-numbers.ts), never computed here.
  const goals: FactGoal[] = goalRes.goals.map((g) => ({
    id: g.id,
    title: g.title,
    due_date: g.due_date,
    created_at: g.created_at,
    progress: g.progress,
    risk: g.risk,
    kpis: g.kpis.map((k) => ({
      id: k.id,
      name: k.name,
      current_value: k.current_value,
      target_value: k.target_value,
      unit: k.unit,
    })),
  }));
  const { checkins } = await kpiHistory(
    ctx,
    viewer,
    goals.flatMap((g) => g.kpis.map((k) => k.id)),
    period.start,
  );
  const input: FactInput = {
    now,
    period_start: period.start,
    period_end: period.end,
    goals,
    checkins: checkins.filter((c) => c.created_at < period.end),
    tasks,
    waiting: waiting.waiting,
    waiting_total: waiting.total,
    threads: threads.slice(0, BRIEF_LIMITS.items).map((t) => ({
      id: t.id,
      sender_name: t.sender_name,
      created_at: t.created_at,
    })),
    failed_runs: failedRuns,
    evidence: [],
  };
  input.evidence = await evidenceFor(ctx, userId, viewer, input);
  return input;
}

/** Longest reason the brief repeats; the run page shows the whole of it. */
const FAILED_REASON_CHARS = 300;

/** The person's runs that failed in the period, first failed first, with the reason their run page shows. */
async function failedRunsOf(
  ctx: AppContext,
  userId: string,
  period: { start: string; end: string },
): Promise<FactFailedRun[]> {
  const runs = await runsFailedBetween(ctx, userId, period.start, period.end, BRIEF_LIMITS.items);
  return runs
    .sort((a, b) => (a.finished_at ?? '').localeCompare(b.finished_at ?? '') || a.id.localeCompare(b.id))
    .slice(0, BRIEF_LIMITS.items)
    .map((r) => {
      const kind = r.kind === 'crew' ? 'crew' : 'flow';
      const reason = (r.error ?? '').trim() || 'no reason was recorded';
      return {
        id: r.id,
        kind,
        title: r.definition_name,
        reason: reason.length > FAILED_REASON_CHARS ? `${reason.slice(0, FAILED_REASON_CHARS - 1)}…` : reason,
        url: runUrl(kind, r.id),
      };
    });
}

/** "Why it moved": per goal that moved, its tasks done, runs finished and messages in the period. */
async function evidenceFor(
  ctx: AppContext,
  userId: string,
  viewer: Viewer,
  input: FactInput,
): Promise<FactEvidence[]> {
  const moved = movedGoalIds(input);
  if (!moved.length) return [];
  const since = input.period_start;
  const until = input.period_end;
  const [tasks, runs, messages] = await Promise.all([
    doneTasksOfGoals(ctx, viewer, moved, since, until, BRIEF_LIMITS.items),
    runsFinishedBetween(ctx, userId, since, until, BRIEF_LIMITS.runs),
    messagesOfUserBetween(ctx, userId, {
      since,
      until,
      scan: BRIEF_LIMITS.threadsScanned,
      limit: BRIEF_LIMITS.messages,
    }),
  ]);
  const goals = new Map(input.goals.map((g) => [g.id, g]));
  return moved.map((goalId) => {
    const goal = goals.get(goalId) as FactGoal;
    return {
      goal_id: goalId,
      tasks: tasks.filter((t) => t.goal_id === goalId).map((t) => ({ id: t.id, title: t.title })),
      runs: runs
        .filter((r) => mentions(r.inputs, goal) || mentions(r.result, goal))
        .sort((a, b) => (a.finished_at ?? '').localeCompare(b.finished_at ?? '') || a.id.localeCompare(b.id))
        .slice(0, BRIEF_LIMITS.items)
        .map((r) => ({
          id: r.id,
          title: r.definition_name,
          // The run's own page (its timeline and result), not the conversation it ran in.
          url: runUrl(r.kind === 'flow' ? 'flow' : 'crew', r.id),
        })),
      messages: messages
        .filter((m) => mentions(m.text, goal))
        .map((m) => ({ thread_id: m.thread_id, sender_name: m.sender_name })),
    };
  });
}
