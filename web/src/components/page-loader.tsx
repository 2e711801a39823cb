import { Skeleton } from './ui/skeleton';

/** Shown while a lazily loaded page arrives. */
export function PageLoader() {
  return (
    <div className="flex flex-col gap-4 p-4" role="status" aria-live="polite">
      <span className="sr-only">Loading…</span>
      <Skeleton className="h-8 w-56" />
      <Skeleton className="h-4 w-80 max-w-full" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
