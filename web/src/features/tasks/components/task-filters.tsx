import { TASK_PRIORITIES, TASK_STATUSES, type TTaskPriority, type TTaskStatus } from '@cc/contract';
import { Search } from 'lucide-react';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import type { TaskFilters as Filters } from '../api';
import type { Person } from './people';

interface TaskFiltersProps {
  value: Filters;
  onChange: (next: Filters) => void;
  /** The assignee filter's choices; null hides the filter (it is for ceo only). */
  people: readonly Person[] | null;
}

export function TaskFilters({ value, onChange, people }: TaskFiltersProps) {
  const set = <K extends keyof Filters>(key: K, v: Filters[K]) => onChange({ ...value, [key]: v });
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="task-search" className="text-xs text-muted-foreground">
          Search tasks
        </Label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id="task-search"
            type="search"
            placeholder="Title or description"
            value={value.search}
            onChange={(e) => set('search', e.target.value)}
            className="pl-9"
          />
        </div>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="task-filter-status" className="text-xs text-muted-foreground">
          Status
        </Label>
        <Select
          id="task-filter-status"
          value={value.status}
          onChange={(e) => set('status', e.target.value as TTaskStatus | '')}
        >
          <option value="">All statuses</option>
          {TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="task-filter-priority" className="text-xs text-muted-foreground">
          Priority
        </Label>
        <Select
          id="task-filter-priority"
          value={value.priority}
          onChange={(e) => set('priority', e.target.value as TTaskPriority | '')}
        >
          <option value="">All priorities</option>
          {TASK_PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </Select>
      </div>
      {people ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="task-filter-assignee" className="text-xs text-muted-foreground">
            Assigned to
          </Label>
          <Select
            id="task-filter-assignee"
            value={value.assignedTo}
            onChange={(e) => set('assignedTo', e.target.value)}
          >
            <option value="">Anyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      <div className="flex w-fit items-center gap-2 text-sm sm:col-span-2 lg:col-span-4">
        <Checkbox
          id="task-include-completed"
          checked={value.includeCompleted}
          onChange={(e) => set('includeCompleted', e.target.checked)}
        />
        <label htmlFor="task-include-completed" className="cursor-pointer">
          Include completed tasks
        </label>
      </div>
    </div>
  );
}
