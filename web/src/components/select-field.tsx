import { cn } from '../lib/utils';
import { Label } from './ui/label';
import { Select } from './ui/select';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly SelectOption<T>[];
  className?: string;
  selectClassName?: string;
}

/** A filter bar's labelled native select; `onChange` gets one of the options' values. */
export function SelectField<T extends string>({
  id,
  label,
  value,
  onChange,
  options,
  className,
  selectClassName,
}: SelectFieldProps<T>) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <Select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
        className={selectClassName}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
