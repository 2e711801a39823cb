import type { ReactNode } from 'react';
import { Checkbox } from './ui/checkbox';

/** A labelled tick list of organizations, used wherever a record is shared with organizations. */
export function OrgChecklist({
  legend,
  idPrefix,
  choices,
  selected,
  onToggle,
}: {
  legend: ReactNode;
  idPrefix: string;
  choices: readonly { id: string; name: string }[];
  selected: readonly string[];
  onToggle(id: string, checked: boolean): void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {choices.map((o) => (
        <div key={o.id} className="flex w-fit items-center gap-2 text-sm">
          <Checkbox
            id={`${idPrefix}-${o.id}`}
            checked={selected.includes(o.id)}
            onChange={(e) => onToggle(o.id, e.target.checked)}
          />
          <label htmlFor={`${idPrefix}-${o.id}`} className="cursor-pointer">
            {o.name}
          </label>
        </div>
      ))}
    </fieldset>
  );
}
