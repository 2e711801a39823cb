import { Download } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { type ActivityFilters, downloadActivity } from '../api';
import { ActivityFeed } from './activity-feed';

const FIELDS: { key: keyof ActivityFilters; label: string; type: string; placeholder?: string }[] = [
  { key: 'actor', label: 'Actor (user id)', type: 'text', placeholder: 'Any user' },
  { key: 'entity_type', label: 'Entity type', type: 'text', placeholder: 'e.g. task, user' },
  { key: 'action', label: 'Action', type: 'text', placeholder: 'e.g. auth.sign_in_failed' },
  { key: 'since', label: 'Since', type: 'date' },
  { key: 'until', label: 'Until', type: 'date' },
];

/** Super Admin → Activity: everyone's entries, filtered, with CSV and JSON-lines export. */
export function AdminActivityPanel() {
  const [draft, setDraft] = useState<ActivityFilters>({});
  const [filters, setFilters] = useState<ActivityFilters>({});
  const [exporting, setExporting] = useState<'csv' | 'jsonl' | null>(null);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  const exportAs = async (format: 'csv' | 'jsonl') => {
    setExporting(format);
    try {
      await downloadActivity(format, filters);
    } catch (err) {
      notify.error('Export failed', serverDetail(err) ?? 'Could not export the activity.');
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <form
        onSubmit={apply}
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
        aria-label="Activity filters"
      >
        {FIELDS.map((f) => (
          <div key={f.key} className="flex flex-col gap-1.5">
            <Label htmlFor={`activity-${f.key}`}>{f.label}</Label>
            <Input
              id={`activity-${f.key}`}
              type={f.type}
              placeholder={f.placeholder}
              value={draft[f.key] ?? ''}
              onChange={(e) => setDraft((d) => ({ ...d, [f.key]: e.target.value }))}
            />
          </div>
        ))}
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-5">
          <Button type="submit">Apply filters</Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setDraft({});
              setFilters({});
            }}
          >
            Clear
          </Button>
          <Button
            type="button"
            variant={filters.source === 'ai' ? 'default' : 'outline'}
            aria-pressed={filters.source === 'ai'}
            onClick={() => {
              const source = filters.source === 'ai' ? undefined : 'ai';
              setDraft((d) => ({ ...d, source }));
              setFilters((f) => ({ ...f, source }));
            }}
          >
            AI changes
          </Button>
          <span className="flex-1" />
          <Button
            type="button"
            variant="outline"
            onClick={() => exportAs('csv')}
            disabled={exporting !== null}
          >
            <Download aria-hidden="true" />
            {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
          </Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => exportAs('jsonl')}
            disabled={exporting !== null}
          >
            <Download aria-hidden="true" />
            {exporting === 'jsonl' ? 'Exporting…' : 'Export JSON lines'}
          </Button>
        </div>
      </form>
      <ActivityFeed scope="admin" filters={filters} />
    </div>
  );
}
