import { ALLOWED_MODELS, type TModelProviders } from '@cc/contract';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { serverDetail } from '../../../lib/api';
import { useModels } from '../../../lib/queries/models';
import { notify } from '../../../lib/toast';
import { useSaveModelProviders } from '../api';
import { EnvironmentRow } from './key-status';

/**
 * The model used wherever none is chosen (briefs, suggestions, agents without a model, and a chat
 * model the endpoint does not list): a built-in model or an offered endpoint model.
 */
export function DefaultModelField({ state }: { state: TModelProviders['default_model'] }) {
  const id = useId();
  const save = useSaveModelProviders();
  const models = useModels();
  const [value, setValue] = useState(state.model);
  useEffect(() => setValue(state.model), [state.model]);
  // GET /api/models lists the offered endpoint models after the built-in ones.
  const offered = Object.entries(models.data?.engines ?? {})
    .filter(
      ([m, engine]) => engine === 'openai-compatible' && !(ALLOWED_MODELS as readonly string[]).includes(m),
    )
    .map(([m]) => m);
  const options = [...new Set([...ALLOWED_MODELS, ...offered, state.model])];

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { default_model: value },
      {
        onSuccess: () => notify.success('Models Saved', `The default model is ${value}.`),
        onError: (err) =>
          notify.error('Save Failed', serverDetail(err) ?? 'Could not set the default model.'),
      },
    );
  };

  return (
    <section className="flex flex-col gap-2" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-medium">
        Default model
      </h3>
      {state.source === 'environment' ? (
        <EnvironmentRow variable="AI_DEFAULT_MODEL">{state.model}.</EnvironmentRow>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-60 flex-col gap-1.5">
            <Label htmlFor={`${id}-model`}>Default model</Label>
            <Select id={`${id}-model`} value={value} onChange={(e) => setValue(e.target.value)}>
              {options.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit" size="sm" disabled={save.isPending || value === state.model}>
            Set default
          </Button>
        </form>
      )}
      <p className="text-muted-foreground text-xs">
        Used wherever no model is chosen, and for a chat model the endpoint does not list. Offer an endpoint
        model under Models and prices to choose it here.
      </p>
    </section>
  );
}
