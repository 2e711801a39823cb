import type { OfflineHandler } from '../types.ts';

/** What the run engine passes for one crew task or flow step (`providerOptions.offline.data`). */
export interface CrewTaskData {
  run_name: string;
  position: number;
  task: { name: string; description: string; expected_output: string | null };
  agent: { name: string; role: string; goal: string } | null;
  inputs: Record<string, string>;
  previous: { name: string; output: string }[];
  human_answer: string | null;
}

const PREVIOUS_EXCERPT = 240;

function firstLines(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function describeToolOutput(toolName: string, output: unknown): string {
  const o = output as Record<string, unknown> | null;
  if (!o || typeof o !== 'object') return `${toolName}: ${firstLines(String(output), 160)}`;
  if (typeof o.error === 'string') return `${toolName}: unavailable (${firstLines(o.error, 120)})`;
  if (Array.isArray(o.hits)) {
    const hits = o.hits as { title?: string; type?: string }[];
    return hits.length
      ? `${toolName}: ${hits.length} match(es) — ${hits
          .slice(0, 3)
          .map((h) => `${h.type ?? 'record'} “${h.title ?? ''}”`)
          .join(', ')}`
      : `${toolName}: no matches`;
  }
  if (Array.isArray(o.goals)) {
    const goals = o.goals as { title?: string; progress?: number }[];
    const open = typeof o.open_task_count === 'number' ? o.open_task_count : 0;
    return `${toolName}: ${goals.length} goal(s)${
      goals.length
        ? ` (${goals
            .slice(0, 3)
            .map((g) => `“${g.title}” ${g.progress ?? 0}%`)
            .join(', ')})`
        : ''
    }, ${open} open task(s)`;
  }
  if (Array.isArray(o.results)) return `${toolName}: ${(o.results as unknown[]).length} web result(s)`;
  return `${toolName}: ${firstLines(JSON.stringify(o), 160)}`;
}

/**
 * The offline engine's answer for one crew task: deterministic, and it quotes the start of the
 * previous task's output, so a test can see that each task received the one before it as context.
 */
export const crewTaskHandler: OfflineHandler = ({ data, toolResults }) => {
  const d = (data ?? {}) as Partial<CrewTaskData>;
  const task = d.task ?? { name: 'Task', description: '', expected_output: null };
  const position = typeof d.position === 'number' ? d.position : 0;
  const lines: string[] = [`### ${task.name} (step ${position + 1})`];
  if (d.agent) lines.push(`_${d.agent.name}, ${d.agent.role} — offline engine_`);
  else lines.push('_Offline engine_');
  lines.push('', `**Task:** ${task.description}`);
  const inputs = Object.entries(d.inputs ?? {}).filter(([, v]) => v.trim() !== '');
  if (inputs.length)
    lines.push(`**Inputs:** ${inputs.map(([k, v]) => `${k}: ${firstLines(v, 200)}`).join('; ')}`);
  if (d.human_answer) lines.push(`**Answer received:** ${firstLines(d.human_answer, 500)}`);
  const prev = d.previous?.at(-1);
  if (prev) lines.push(`**Building on “${prev.name}”:** ${firstLines(prev.output, PREVIOUS_EXCERPT)}`);
  else lines.push('**Building on:** nothing yet (first step).');
  if (toolResults.length) {
    lines.push('', '**Evidence:**');
    for (const r of toolResults) lines.push(`- ${describeToolOutput(r.toolName, r.output)}`);
  }
  lines.push(
    '',
    `**Result:** ${task.expected_output ?? 'Done'} — prepared for “${d.run_name ?? 'this run'}”.`,
  );
  return lines.join('\n');
};
