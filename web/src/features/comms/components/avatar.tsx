import { cn } from '../../../lib/utils';

/** The initial avatar of a person or conversation. */
export function Avatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-[#1f3a66] to-[#13213d] text-sm font-semibold text-primary ring-1 ring-[#2f4572]',
        className,
      )}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
