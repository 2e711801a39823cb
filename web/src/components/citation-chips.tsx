import { NO_WORKSPACE_RECORD_TEXT, type TRecordCitation } from '@cc/contract';
import { Link } from 'react-router';

/** Every record type a chip names; each one opens a page (`citationUrl`, tested in citation-chips.test.tsx). */
export const TYPE_LABEL: Record<string, string> = {
  goal: 'Goal',
  kpi: 'KPI',
  advice: 'Advice',
  task: 'Task',
  note: 'Note',
  contact: 'Contact',
  file: 'File',
  thread: 'Thread',
  run: 'Run',
  suggestion: 'Suggestion',
  inbox: 'Inbox item',
  web: 'Web',
};

const CHIP =
  'inline-flex max-w-full items-center gap-1 truncate rounded-full border border-border bg-muted/60 px-2 py-0.5 text-xs hover:border-primary/60 hover:text-foreground';

/**
 * The records an AI output used, as chips that open each record (issue 20 §3); when it used none,
 * a line saying so. A web page opens in a new tab; a workspace record in the app.
 */
export function CitationChips({ citations }: { citations: readonly TRecordCitation[] }) {
  if (citations.length === 0) {
    return <p className="mt-2 text-xs text-muted-foreground">{NO_WORKSPACE_RECORD_TEXT}</p>;
  }
  return (
    <ul aria-label="Sources" className="mt-2 flex flex-wrap gap-1.5">
      {citations.map((c) => {
        const label = `${TYPE_LABEL[c.type] ?? c.type}: ${c.title}`;
        return (
          <li key={`${c.type}:${c.id}`} className="min-w-0 max-w-full">
            {c.type === 'web' ? (
              <a href={c.url} target="_blank" rel="noreferrer noopener" className={CHIP} title={label}>
                {label}
              </a>
            ) : (
              <Link to={c.url} className={CHIP} title={label}>
                {label}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
