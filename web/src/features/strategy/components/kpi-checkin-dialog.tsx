import type { TKpi, TKpiCheckinRequest } from '@cc/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { FormField, fieldA11y } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';

export const CHECKIN_VALUE_REQUIRED = 'Enter the value as a number.';

interface KpiCheckinDialogProps {
  /** The KPI being checked in, or null when closed. */
  kpi: TKpi | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (body: TKpiCheckinRequest) => void;
}

/**
 * Records a KPI's value on a date (blank: today). A second check-in on the same date replaces the
 * first; a past date adds to the history without changing the current value when a later one exists.
 */
export function KpiCheckinDialog({ kpi, pending, onClose, onSubmit }: KpiCheckinDialogProps) {
  const [value, setValue] = useState('');
  const [date, setDate] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (kpi) {
      setValue(String(kpi.current_value));
      setDate('');
      setNote('');
      setError(null);
    }
  }, [kpi]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(n)) {
      setError(CHECKIN_VALUE_REQUIRED);
      return;
    }
    onSubmit({ value: n, ...(date ? { date } : {}), note: note.trim() || null });
  };

  return (
    <Dialog open={kpi !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Check in {kpi?.name}</DialogTitle>
          <DialogDescription>
            Record the KPI's value on a date (today when left blank); one check-in per date.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <FormField id="checkin-value" label="Value" error={error ?? undefined}>
            <Input
              {...fieldA11y('checkin-value', error ?? undefined)}
              inputMode="decimal"
              aria-required="true"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </FormField>
          <FormField id="checkin-date" label="Date">
            <Input id="checkin-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          </FormField>
          <FormField id="checkin-note" label="Note">
            <Textarea id="checkin-note" value={note} onChange={(e) => setNote(e.target.value)} />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              Save check-in
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
