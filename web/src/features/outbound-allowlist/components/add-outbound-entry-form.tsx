import { OUTBOUND_ALLOWLIST_METHODS, type TOutboundAllowlist } from '@cc/contract';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { notify } from '../../../lib/toast';
import { asRequestEntries, useSaveOutboundAllowlist } from '../api';
import { type EntryErrors, entryErrorsFrom } from '../field-errors';

type Method = (typeof OUTBOUND_ALLOWLIST_METHODS)[number];

/** Adds one entry: the PUT carries the current list plus the new entry (the server validates it). */
export function AddOutboundEntryForm({ entries }: { entries: TOutboundAllowlist['entries'] }) {
  const id = useId();
  const save = useSaveOutboundAllowlist();
  const [method, setMethod] = useState<Method>('GET');
  const [destination, setDestination] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<EntryErrors>({});

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!destination.trim()) {
      setErrors({ destination: 'Enter the destination, e.g. https://api.example.com/v1/search.' });
      return;
    }
    setErrors({});
    const added = { method, destination: destination.trim(), note: note.trim() || null };
    save.mutate(
      { entries: [...asRequestEntries(entries), added] },
      {
        onSuccess: () => {
          setDestination('');
          setNote('');
          notify.success(
            'Outbound Calls Saved',
            `${method} ${added.destination} is listed as side-effect-free.`,
          );
        },
        onError: (err) => setErrors(entryErrorsFrom(err, entries.length)),
      },
    );
  };

  const fieldError = (name: keyof EntryErrors) =>
    errors[name] ? (
      <p id={`${id}-${name}-error`} className="text-danger-text text-xs">
        {errors[name]}
      </p>
    ) : null;
  const described = (name: keyof EntryErrors) =>
    errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${name}-error` } : {};

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`} className="font-medium">
        Add a destination
      </h3>
      {errors.general ? <Alert>{errors.general}</Alert> : null}
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-method`}>Method</Label>
          <Select
            id={`${id}-method`}
            value={method}
            onChange={(e) => setMethod(e.target.value as Method)}
            {...described('method')}
          >
            {OUTBOUND_ALLOWLIST_METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
          {fieldError('method')}
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-destination`}>Destination</Label>
          <Input
            id={`${id}-destination`}
            inputMode="url"
            autoComplete="off"
            placeholder="https://api.example.com/v1/search"
            value={destination}
            onChange={(e) => setDestination(e.target.value)}
            {...described('destination')}
          />
          {fieldError('destination')}
        </div>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-note`}>Note (optional)</Label>
        <Input
          id={`${id}-note`}
          autoComplete="off"
          placeholder="Why calls there change nothing, e.g. read-only search"
          maxLength={500}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          {...described('note')}
        />
        {fieldError('note')}
      </div>
      <div>
        <Button type="submit" size="sm" disabled={save.isPending}>
          {save.isPending ? 'Adding…' : 'Add destination'}
        </Button>
      </div>
    </form>
  );
}
