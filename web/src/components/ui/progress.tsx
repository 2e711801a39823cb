import { cn } from '../../lib/utils';

interface ProgressProps {
  /** 0 to 100. */
  value: number;
  /** The accessible name of the bar (e.g. "Progress of Grow revenue"). */
  label: string;
  className?: string;
  /** Tailwind classes for the filled part. */
  indicatorClassName?: string;
}

/** A determinate progress bar (role="progressbar" with its value for assistive technology). */
export function Progress({ value, label, className, indicatorClassName }: ProgressProps) {
  const pct = Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-muted', className)}
    >
      <div
        className={cn('h-full rounded-full bg-primary transition-[width] duration-300', indicatorClassName)}
        style={{ width: `${pct}%` }}
      />
    </div>
  );
}
