import {
  GOAL_SORTS,
  GOAL_STATUSES,
  goalStatusLabel,
  type TGoalSort,
  type TGoalStatus,
  type TOrganization,
} from '@cc/contract';
import { Search } from 'lucide-react';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import type { GoalFilters as Filters } from '../api';

const SORT_LABELS: Record<TGoalSort, string> = {
  due_date: 'Due date',
  created_at: 'Created',
  status: 'Status',
};

interface GoalFiltersProps {
  value: Filters;
  onChange: (next: Filters) => void;
  organizations: readonly TOrganization[];
}

export function GoalFilters({ value, onChange, organizations }: GoalFiltersProps) {
  const set = <K extends keyof Filters>(key: K, v: Filters[K]) => onChange({ ...value, [key]: v });
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="goal-search" className="text-xs text-muted-foreground">
          Search goals
        </Label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id="goal-search"
            type="search"
            placeholder="Title or description"
            value={value.search}
            onChange={(e) => set('search', e.target.value)}
            className="pl-9"
          />
        </div>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="goal-filter-status" className="text-xs text-muted-foreground">
          Status
        </Label>
        <Select
          id="goal-filter-status"
          value={value.status}
          onChange={(e) => set('status', e.target.value as TGoalStatus | '')}
          className="capitalize"
        >
          <option value="">All statuses</option>
          {GOAL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {goalStatusLabel(s)}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="goal-filter-org" className="text-xs text-muted-foreground">
          Organization
        </Label>
        <Select
          id="goal-filter-org"
          value={value.organizationId}
          onChange={(e) => set('organizationId', e.target.value)}
        >
          <option value="">All organizations</option>
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="goal-sort" className="text-xs text-muted-foreground">
          Sort by
        </Label>
        <Select
          id="goal-sort"
          value={value.sortBy}
          onChange={(e) => set('sortBy', e.target.value as TGoalSort)}
        >
          {GOAL_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex w-fit items-center gap-2 text-sm sm:col-span-2 lg:col-span-4">
        <Checkbox
          id="goal-include-completed"
          checked={value.includeCompleted}
          onChange={(e) => set('includeCompleted', e.target.checked)}
        />
        <label htmlFor="goal-include-completed" className="cursor-pointer">
          Include completed goals
        </label>
      </div>
    </div>
  );
}
