import { ArrowDown, ArrowUp, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';

/** The form-level validation message (the spec's messages name several fields at once). */
export function FormError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-danger-text">
      {message}
    </p>
  );
}

/** A checkbox list for a multi-select (agents of a crew, tools of an agent). */
export function CheckList({
  idPrefix,
  legend,
  options,
  value,
  onChange,
  empty,
}: {
  idPrefix: string;
  legend: string;
  options: readonly { id: string; name: string }[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  empty: string;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {options.length === 0 ? <p className="text-xs text-muted-foreground">{empty}</p> : null}
      <div className="grid max-h-44 gap-2 overflow-y-auto pr-1 sm:grid-cols-2">
        {options.map((o) => {
          const id = `${idPrefix}-${o.id}`;
          const checked = value.includes(o.id);
          return (
            <div key={o.id} className="flex min-w-0 items-center gap-2 text-sm">
              <Checkbox
                id={id}
                checked={checked}
                onChange={() => onChange(checked ? value.filter((v) => v !== o.id) : [...value, o.id])}
              />
              <label htmlFor={id} className="cursor-pointer truncate">
                {o.name}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

/** One row of an ordered list (crew tasks, flow steps) with move and remove controls. */
export function OrderedRow({
  index,
  count,
  noun,
  onMove,
  onRemove,
  children,
}: {
  index: number;
  count: number;
  noun: string;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
  children: ReactNode;
}) {
  const n = index + 1;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-border bg-muted/40 p-3">
      <div className="flex items-center gap-1">
        <span className="text-sm font-medium">
          {noun} {n}
        </span>
        <span className="flex-1" />
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Move ${noun.toLowerCase()} ${n} up`}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
        >
          <ArrowUp aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Move ${noun.toLowerCase()} ${n} down`}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          <ArrowDown aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Remove ${noun.toLowerCase()} ${n}`}
          onClick={() => onRemove(index)}
        >
          <X aria-hidden="true" />
        </Button>
      </div>
      {children}
    </li>
  );
}

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}
