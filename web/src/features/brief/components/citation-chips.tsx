import type { TCitation } from '@cc/contract';
import { Link } from 'react-router';

const TYPE_LABELS: Record<string, string> = {
  goal: 'Goal',
  kpi: 'KPI',
  task: 'Task',
  run: 'Run',
  suggestion: 'Suggestion',
  thread: 'Thread',
};

/** The records a line was built from, as chips; each opens its record. */
export function CitationChips({ citations }: { citations: readonly TCitation[] }) {
  if (!citations.length) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-1.5" aria-label="Sources">
      {citations.map((c) => (
        <li key={`${c.type}:${c.id}`}>
          <Link
            to={c.url}
            className="inline-flex max-w-64 items-center gap-1 rounded-full border px-2 py-0.5 text-xs hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <span className="text-muted-foreground">{TYPE_LABELS[c.type] ?? c.type}</span>
            <span className="truncate">{c.title}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
