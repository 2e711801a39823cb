import type { InputHTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

/**
 * A styled native checkbox: keyboard and screen-reader accessible, works with react-hook-form's
 * `register`. Label it with a wrapping <label> or `htmlFor`.
 */
export function Checkbox({ className, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <input
      type="checkbox"
      className={cn(
        'size-4 shrink-0 cursor-pointer rounded border-border accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60',
        className,
      )}
      {...props}
    />
  );
}
