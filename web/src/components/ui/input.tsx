import type { InputHTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

export const fieldClass =
  'w-full rounded-md border border-border bg-input px-3 text-sm text-foreground placeholder:text-[#8391ab] transition-colors focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-70 read-only:bg-muted aria-invalid:border-[#f87171]';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(fieldClass, 'h-10 py-2', className)} {...props} />;
}
