import { z } from 'zod';

/**
 * A workspace record an AI output used (issue 20 §3): the web shows it as a chip that opens `url`.
 * The same shape as the brief's citations.
 */
export const ZRecordCitation = z.object({
  type: z.string(),
  id: z.string(),
  title: z.string(),
  url: z.string(),
});
export type TRecordCitation = z.infer<typeof ZRecordCitation>;

/** What an AI output that used no workspace record says under its text. */
export const NO_WORKSPACE_RECORD_TEXT = 'No workspace record used';

/**
 * Where the web opens a cited record (a web page's id is its own URL). Every type the chips know leads
 * to a page that opens the record: a KPI opens its goal (found from the KPI), a suggestion the task
 * suggestions review, a run `/app/runs/<id>`, which finds the run's kind and shows its page.
 */
export function citationUrl(type: string, id: string): string {
  const q = encodeURIComponent(id);
  switch (type) {
    case 'goal':
      return `/app/strategy?goal=${q}`;
    case 'kpi':
      return `/app/strategy?kpi=${q}`;
    case 'advice':
      return `/app/strategy?advice=${q}`;
    case 'task':
      return `/app/my-tasks?task=${q}`;
    case 'suggestion':
      return `/app/my-tasks?suggestion=${q}`;
    case 'note':
      return `/app/notes?note=${q}`;
    case 'contact':
      return `/app/contacts?contact=${q}`;
    case 'file':
      return `/app/files?file=${q}`;
    case 'thread':
      return `/app/comms?thread=${q}`;
    case 'inbox':
      return `/app/inbox?item=${q}`;
    case 'run':
      return `/app/runs/${q}`;
    case 'web':
      return id;
    default:
      return '/app/ceodashboard';
  }
}

/** A run's own page when its kind is known (saves the lookup `citationUrl('run', id)` makes). */
export function runUrl(kind: 'crew' | 'flow', id: string): string {
  return `/app/runs/${kind}/${encodeURIComponent(id)}`;
}
