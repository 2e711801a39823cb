import {
  DEFAULT_BRIEF_TIME,
  DEFAULT_BRIEF_WEEKDAYS,
  isTimeZone,
  type TBriefSchedule,
  type TUser,
} from '@cc/contract';
import { useState } from 'react';
import { FormField } from '../../../components/form-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useUpdateMe } from '../api';

/** ISO weekdays, Monday = 1. */
const WEEKDAYS = [
  [1, 'Mon'],
  [2, 'Tue'],
  [3, 'Wed'],
  [4, 'Thu'],
  [5, 'Fri'],
  [6, 'Sat'],
  [7, 'Sun'],
] as const;

/** The browser's own time zone (the default until the user picks one). */
export function browserTimeZone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return tz && isTimeZone(tz) ? tz : 'UTC';
}

/** What the form shows: the saved schedule, else weekdays at 07:30 in the browser's zone, off. */
export function initialSchedule(saved: TBriefSchedule | null | undefined): TBriefSchedule {
  return (
    saved ?? {
      enabled: false,
      weekdays: [...DEFAULT_BRIEF_WEEKDAYS],
      time: DEFAULT_BRIEF_TIME,
      timezone: browserTimeZone(),
    }
  );
}

/** The Profile page's schedule of the executive brief (PATCH /api/users/me `brief_schedule`). */
export function BriefScheduleForm({ user }: { user: TUser }) {
  const [value, setValue] = useState<TBriefSchedule>(() => initialSchedule(user.brief_schedule));
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateMe();
  const zoneOk = isTimeZone(value.timezone);
  const invalid = !value.weekdays.length ? 'Pick at least one day' : !zoneOk ? 'Unknown time zone' : null;

  const toggleDay = (day: number) =>
    setValue((v) => ({
      ...v,
      weekdays: v.weekdays.includes(day) ? v.weekdays.filter((d) => d !== day) : [...v.weekdays, day].sort(),
    }));

  const onSave = () => {
    setFailure(null);
    update.mutate(
      { brief_schedule: value },
      {
        onSuccess: () => notify.success('Brief schedule saved'),
        onError: (err) => setFailure(serverDetail(err) ?? err.message),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Brief schedule</CardTitle>
        <CardDescription>Your executive brief, prepared at this time on the days you pick.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <label htmlFor="brief-enabled" className="flex items-center gap-2 text-sm font-medium">
          <Checkbox
            id="brief-enabled"
            checked={value.enabled}
            onChange={(e) => setValue((v) => ({ ...v, enabled: e.target.checked }))}
          />
          Send me a scheduled brief
        </label>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium">Days</legend>
          <div className="flex flex-wrap gap-3">
            {WEEKDAYS.map(([day, label]) => (
              <label key={day} htmlFor={`brief-day-${day}`} className="flex items-center gap-1.5 text-sm">
                <Checkbox
                  id={`brief-day-${day}`}
                  checked={value.weekdays.includes(day)}
                  onChange={() => toggleDay(day)}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="brief-time" label="Time">
            <Input
              id="brief-time"
              type="time"
              value={value.time}
              onChange={(e) => setValue((v) => ({ ...v, time: e.target.value }))}
            />
          </FormField>
          <FormField id="brief-timezone" label="Time zone" error={zoneOk ? undefined : 'Unknown time zone'}>
            <Input
              id="brief-timezone"
              value={value.timezone}
              onChange={(e) => setValue((v) => ({ ...v, timezone: e.target.value }))}
            />
          </FormField>
        </div>
        {failure ? <Alert>{failure}</Alert> : null}
        {invalid && zoneOk ? <Alert>{invalid}</Alert> : null}
        <Button className="w-fit" onClick={onSave} disabled={update.isPending || invalid !== null}>
          {update.isPending ? <Spinner /> : null}
          Save schedule
        </Button>
      </CardContent>
    </Card>
  );
}
