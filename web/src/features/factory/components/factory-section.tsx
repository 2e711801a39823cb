import type { LucideIcon } from 'lucide-react';
import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';

interface FactorySectionProps<T> {
  id: string;
  title: string;
  icon: LucideIcon;
  /** The "Create New …" button in the section's header. */
  createLabel: string;
  createVariant?: 'default' | 'secondary';
  onCreate: () => void;
  query: { isPending: boolean; isError: boolean; error: Error | null };
  items: readonly T[];
  empty: string;
  renderItem: (item: T) => ReactNode;
}

/** One section of the AI Factory page: heading with its create button, then loading / error / empty / cards. */
export function FactorySection<T>({
  id,
  title,
  icon: Icon,
  createLabel,
  createVariant,
  onCreate,
  query,
  items,
  empty,
  renderItem,
}: FactorySectionProps<T>) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="flex items-center gap-2 text-xl font-semibold">
          <Icon className="size-5 text-primary" aria-hidden="true" />
          {title}
        </h2>
        <Button variant={createVariant} onClick={onCreate}>
          <Plus aria-hidden="true" />
          {createLabel}
        </Button>
      </div>
      {query.isPending ? (
        <div role="status" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          <span className="sr-only">Loading {title}…</span>
          <Skeleton className="h-[340px]" />
          <Skeleton className="hidden h-[340px] md:block" />
        </div>
      ) : query.isError ? (
        <Alert>{query.error?.message ?? 'Failed to load'}</Alert>
      ) : items.length === 0 ? (
        <Card className="px-6 py-10 text-center text-sm text-muted-foreground">{empty}</Card>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">{items.map(renderItem)}</div>
      )}
    </section>
  );
}
