import {
  INITIAL_GOAL_INPUT,
  INITIAL_GOAL_LABEL,
  type TCrewInputField,
  type TCrewInputSchema,
} from '@cc/contract';
import { type FormEvent, useState } from 'react';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';

/** The one free-text field shown when a crew requires input but declares none (spec section 5). */
export const INITIAL_GOAL_FIELD: TCrewInputField = {
  name: INITIAL_GOAL_INPUT,
  label: INITIAL_GOAL_LABEL,
  required: true,
};
export const INPUT_REQUIRED = 'This crew needs input: enter at least one non-blank answer';
export const FIELD_REQUIRED = (label: string) => `${label} is required`;

export function inputFieldsOf(schema: TCrewInputSchema | undefined): TCrewInputField[] {
  if (!schema?.requires_input) return schema?.fields ?? [];
  return schema.fields.length ? schema.fields : [INITIAL_GOAL_FIELD];
}

export const labelOf = (f: TCrewInputField) =>
  f.label || f.name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * A crew that needs input cannot start with blank answers: at least one non-blank answer, and every
 * required field filled. Returns the trimmed non-blank inputs, or the message to show.
 */
export function validateCrewInputs(
  schema: TCrewInputSchema,
  values: Record<string, string>,
): { inputs: Record<string, string>; error: null } | { inputs: null; error: string } {
  const fields = inputFieldsOf(schema);
  const inputs: Record<string, string> = {};
  for (const f of fields) {
    const v = (values[f.name] ?? '').trim();
    if (v) inputs[f.name] = v;
  }
  if (!schema.requires_input) return { inputs, error: null };
  if (Object.keys(inputs).length === 0) return { inputs: null, error: INPUT_REQUIRED };
  const missing = fields.find((f) => f.required && !inputs[f.name]);
  if (missing) return { inputs: null, error: FIELD_REQUIRED(labelOf(missing)) };
  return { inputs, error: null };
}

/** The crew's input fields (or the initial_goal fallback). */
export function CrewInputFields({
  schema,
  idPrefix,
  values,
  onChange,
}: {
  schema: TCrewInputSchema;
  idPrefix: string;
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}) {
  return (
    <>
      {inputFieldsOf(schema).map((f) => {
        const id = `${idPrefix}-${f.name}`;
        return (
          <FormField key={f.name} id={id} label={`${labelOf(f)}${f.required ? '' : ' (optional)'}`}>
            <Textarea
              id={id}
              aria-required={f.required || undefined}
              value={values[f.name] ?? ''}
              onChange={(e) => onChange({ ...values, [f.name]: e.target.value })}
            />
          </FormField>
        );
      })}
    </>
  );
}

/** "Enter questions": the form a crew that needs input shows before it starts. */
export function CrewInputForm({
  schema,
  idPrefix = 'crew-input',
  submitLabel = 'Start crew',
  pending = false,
  onSubmit,
  onCancel,
}: {
  schema: TCrewInputSchema;
  idPrefix?: string;
  submitLabel?: string;
  pending?: boolean;
  onSubmit: (inputs: Record<string, string>) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = validateCrewInputs(schema, values);
    setError(checked.error);
    if (checked.inputs) onSubmit(checked.inputs);
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4"
      aria-labelledby={`${idPrefix}-heading`}
    >
      <h3 id={`${idPrefix}-heading`} className="text-base font-semibold">
        Enter questions
      </h3>
      <CrewInputFields schema={schema} idPrefix={idPrefix} values={values} onChange={setValues} />
      {error ? (
        <p role="alert" className="text-sm font-medium text-danger-text">
          {error}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button variant="outline" onClick={onCancel} disabled={pending}>
            Back
          </Button>
        ) : null}
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner /> : null}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
