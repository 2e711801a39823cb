import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

const alertVariants = cva('rounded-md border px-4 py-3 text-sm', {
  variants: {
    variant: {
      error: 'border-[#7f1d1d] bg-[#2a0f12] text-danger-text',
      info: 'border-[#1e3a8a] bg-[#0f1d3d] text-info-text',
      success: 'border-[#065f46] bg-[#022c22] text-success-text',
    },
  },
  defaultVariants: { variant: 'error' },
});

export interface AlertProps extends HTMLAttributes<HTMLDivElement>, VariantProps<typeof alertVariants> {}

/** An inline message; errors are announced to screen readers (role="alert"). */
export function Alert({ className, variant, role, ...props }: AlertProps) {
  return (
    <div
      role={role ?? (variant === 'error' || !variant ? 'alert' : 'status')}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    />
  );
}
