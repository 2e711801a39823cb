import {
  GOAL_SORTS,
  GOAL_STATUSES,
  goalStatusLabel,
  type TGoalSort,
  type TGoalStatus,
  type TOrganization,
} from '@cc/contract';
import { SearchField } from '../../../components/search-field';
import { SelectField } from '../../../components/select-field';
import { Checkbox } from '../../../components/ui/checkbox';
import type { GoalFilters as Filters } from '../api';

const SORT_LABELS: Record<TGoalSort, string> = {
  due_date: 'Due date',
  created_at: 'Created',
  status: 'Status',
};

const STATUS_OPTIONS = [
  { value: '' as const, label: 'All statuses' },
  ...GOAL_STATUSES.map((s) => ({ value: s, label: goalStatusLabel(s) })),
];
const SORT_OPTIONS = GOAL_SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }));

interface GoalFiltersProps {
  value: Filters;
  onChange: (next: Filters) => void;
  organizations: readonly TOrganization[];
}

export function GoalFilters({ value, onChange, organizations }: GoalFiltersProps) {
  const set = <K extends keyof Filters>(key: K, v: Filters[K]) => onChange({ ...value, [key]: v });
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
      <SearchField
        id="goal-search"
        label="Search goals"
        placeholder="Title or description"
        value={value.search}
        onChange={(v) => set('search', v)}
      />
      <SelectField<TGoalStatus | ''>
        id="goal-filter-status"
        label="Status"
        value={value.status}
        onChange={(v) => set('status', v)}
        options={STATUS_OPTIONS}
        selectClassName="capitalize"
      />
      <SelectField
        id="goal-filter-org"
        label="Organization"
        value={value.organizationId}
        onChange={(v) => set('organizationId', v)}
        options={[
          { value: '', label: 'All organizations' },
          ...organizations.map((o) => ({ value: o.id, label: o.name })),
        ]}
      />
      <SelectField<TGoalSort>
        id="goal-sort"
        label="Sort by"
        value={value.sortBy}
        onChange={(v) => set('sortBy', v)}
        options={SORT_OPTIONS}
      />
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
