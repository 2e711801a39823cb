import {
  COMPLETED_TASK_STATUS,
  TASK_PRIORITIES,
  TASK_STATUSES,
  type TTaskPriority,
  type TTaskStatus,
} from '@cc/contract';
import { useState } from 'react';
import { SearchField } from '../../../components/search-field';
import { SelectField } from '../../../components/select-field';
import { Checkbox } from '../../../components/ui/checkbox';
import type { TaskFilters as Filters } from '../api';
import type { Person } from '../../../lib/assignable-people';

interface TaskFiltersProps {
  value: Filters;
  onChange: (next: Filters) => void;
  /** The assignee filter's choices; null hides the filter (it is for ceo only). */
  people: readonly Person[] | null;
}

const STATUS_OPTIONS = [
  { value: '' as const, label: 'All statuses' },
  ...TASK_STATUSES.map((s) => ({ value: s, label: s })),
];
const PRIORITY_OPTIONS = [
  { value: '' as const, label: 'All priorities' },
  ...TASK_PRIORITIES.map((p) => ({ value: p, label: p })),
];

export function TaskFilters({ value, onChange, people }: TaskFiltersProps) {
  const set = <K extends keyof Filters>(key: K, v: Filters[K]) => onChange({ ...value, [key]: v });
  // Done tasks are hidden unless the box is ticked (spec §2), so asking for Done ticks it, and says so.
  const [autoTicked, setAutoTicked] = useState(false);
  const setStatus = (status: TTaskStatus | '') => {
    const tick = status === COMPLETED_TASK_STATUS && !value.includeCompleted;
    setAutoTicked(tick);
    onChange({ ...value, status, includeCompleted: value.includeCompleted || tick });
  };
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
      <SearchField
        id="task-search"
        label="Search tasks"
        placeholder="Title or description"
        value={value.search}
        onChange={(v) => set('search', v)}
      />
      <SelectField<TTaskStatus | ''>
        id="task-filter-status"
        label="Status"
        value={value.status}
        onChange={setStatus}
        options={STATUS_OPTIONS}
      />
      <SelectField<TTaskPriority | ''>
        id="task-filter-priority"
        label="Priority"
        value={value.priority}
        onChange={(v) => set('priority', v)}
        options={PRIORITY_OPTIONS}
      />
      {people ? (
        <SelectField
          id="task-filter-assignee"
          label="Assigned to"
          value={value.assignedTo}
          onChange={(v) => set('assignedTo', v)}
          options={[{ value: '', label: 'Anyone' }, ...people.map((p) => ({ value: p.id, label: p.label }))]}
        />
      ) : null}
      <div className="flex w-fit items-center gap-2 text-sm sm:col-span-2 lg:col-span-4">
        <Checkbox
          id="task-include-completed"
          checked={value.includeCompleted}
          onChange={(e) => {
            setAutoTicked(false);
            set('includeCompleted', e.target.checked);
          }}
        />
        <label htmlFor="task-include-completed" className="cursor-pointer">
          Include completed tasks
        </label>
        <span role="status" className="text-xs text-muted-foreground">
          {autoTicked ? 'Ticked to show Done tasks.' : ''}
        </span>
      </div>
    </div>
  );
}
