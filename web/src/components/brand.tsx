import { cn } from '../lib/utils';

/** The product mark and name. */
export function Brand({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#17213a" />
        <path
          d="M16 6 26 11v10l-10 5-10-5V11z"
          fill="none"
          stroke="#f2b544"
          strokeWidth="2.4"
          strokeLinejoin="round"
        />
        <circle cx="16" cy="16" r="3.2" fill="#f2b544" />
      </svg>
      {compact ? <span className="sr-only">Command Centre</span> : <span>Command Centre</span>}
    </span>
  );
}
