import { type ReactNode, useId, useState } from 'react';
import { cn } from '../../lib/utils';

/** Two or more panels behind a row of tabs (arrow keys move between tabs, as WAI-ARIA tabs do). */
export function Tabs({
  tabs,
  label,
  initial,
}: {
  label: string;
  tabs: { id: string; title: string; panel: () => ReactNode }[];
  /** The tab shown first (a link may name one, e.g. `?tab=models`); unknown ids show the first. */
  initial?: string | null;
}) {
  const [active, setActive] = useState(tabs.find((t) => t.id === initial)?.id ?? tabs[0].id);
  const base = useId();
  const current = tabs.find((t) => t.id === active) ?? tabs[0];
  const move = (delta: number) => {
    const i = tabs.findIndex((t) => t.id === active);
    const next = tabs[(i + delta + tabs.length) % tabs.length];
    setActive(next.id);
    document.getElementById(`${base}-tab-${next.id}`)?.focus();
  };
  return (
    <div className="flex flex-col gap-4">
      {/* One tab shows no tab list; the panel keeps its place either way (no remount when a tab appears). */}
      {tabs.length < 2 ? null : (
        <div role="tablist" aria-label={label} className="flex gap-1 border-border border-b">
          {tabs.map((t) => (
            <button
              key={t.id}
              id={`${base}-tab-${t.id}`}
              type="button"
              role="tab"
              aria-selected={t.id === active}
              aria-controls={`${base}-panel-${t.id}`}
              tabIndex={t.id === active ? 0 : -1}
              onClick={() => setActive(t.id)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowRight') move(1);
                if (e.key === 'ArrowLeft') move(-1);
              }}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 font-medium text-sm focus-visible:outline-2 focus-visible:outline-ring',
                t.id === active
                  ? 'border-primary text-foreground'
                  : 'border-transparent text-muted-foreground',
              )}
            >
              {t.title}
            </button>
          ))}
        </div>
      )}
      <div
        role="tabpanel"
        id={`${base}-panel-${current.id}`}
        aria-labelledby={tabs.length < 2 ? undefined : `${base}-tab-${current.id}`}
      >
        {current.panel()}
      </div>
    </div>
  );
}
