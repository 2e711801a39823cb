import type { TModelProvidersUpdate, TProviderKeyState } from '@cc/contract';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useSaveModelProviders } from '../api';
import { EnvironmentRow, keyStatus } from './key-status';

interface ApiKeyFieldProps {
  title: string;
  field: 'openai_api_key' | 'google_api_key';
  variable: string;
  state: { source: 'environment' | 'settings' | null; key: TProviderKeyState };
}

/** The OpenAI or Gemini key: write-only (blank keeps the stored key), removable, or the environment's. */
export function ApiKeyField({ title, field, variable, state }: ApiKeyFieldProps) {
  const id = useId();
  const save = useSaveModelProviders();
  const [value, setValue] = useState('');
  const submit = (body: TModelProvidersUpdate, done: string) =>
    save.mutate(body, {
      onSuccess: () => {
        setValue('');
        notify.success('Models Saved', done);
      },
      onError: (err) => notify.error('Save Failed', serverDetail(err) ?? 'Could not save the key.'),
    });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim() === '') {
      notify.error('Key Required', `Enter the ${title} key to save it.`);
      return;
    }
    submit({ [field]: value.trim() }, `The ${title} key is saved.`);
  };

  return (
    <section className="flex flex-col gap-2" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-medium">
        {title}
      </h3>
      {state.source === 'environment' ? (
        <EnvironmentRow variable={variable}>{keyStatus(state.key)}.</EnvironmentRow>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-60 flex-1 flex-col gap-1.5">
            <Label htmlFor={`${id}-key`}>{title} API key</Label>
            <Input
              id={`${id}-key`}
              type="password"
              autoComplete="off"
              placeholder={state.key.set ? 'Leave blank to keep the stored key' : 'Paste the key'}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
            <p className="text-muted-foreground text-xs">{keyStatus(state.key)}</p>
          </div>
          <Button type="submit" size="sm" disabled={save.isPending}>
            Save key
          </Button>
          {state.key.set || state.key.unreadable ? (
            <Button
              variant="outline"
              size="sm"
              disabled={save.isPending}
              onClick={() => submit({ [field]: null }, `The ${title} key is removed.`)}
            >
              Remove key
            </Button>
          ) : null}
        </form>
      )}
    </section>
  );
}
