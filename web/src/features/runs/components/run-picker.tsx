import type { TCrewInputSchema } from '@cc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Search, Users, Workflow } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { useCrews, useFlows } from '../../../lib/queries/factory-items';
import { inputSchemaQuery, type RunKind } from '../api';
import { CrewInputForm } from './crew-input-form';

export interface PickedItem {
  kind: RunKind;
  id: string;
  name: string;
}

/** A crew waiting for its "Enter questions" answers. */
export interface AskingFor {
  item: PickedItem;
  schema: TCrewInputSchema;
}

interface RunPickerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Open straight on a crew's questions (a run started from the Factory). */
  asking: AskingFor | null;
  onAskingChange: (asking: AskingFor | null) => void;
  pending: boolean;
  onStart: (item: PickedItem, inputs: Record<string, string>) => void;
}

/** The searchable picker of crews and flows; a crew that needs input asks "Enter questions" first. */
export function RunPicker({ open, onOpenChange, asking, onAskingChange, pending, onStart }: RunPickerProps) {
  const queryClient = useQueryClient();
  const crews = useCrews();
  const flows = useFlows();
  const [search, setSearch] = useState('');
  const [loadingId, setLoadingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (open) {
      setSearch('');
      setError(null);
    }
  }, [open]);

  const q = search.trim().toLowerCase();
  const match = (i: { name: string; description: string | null }) =>
    !q || i.name.toLowerCase().includes(q) || (i.description ?? '').toLowerCase().includes(q);
  const crewHits = (crews.data ?? []).filter(match);
  const flowHits = (flows.data ?? []).filter(match);

  const pick = async (item: PickedItem, requiresInput: boolean) => {
    if (item.kind === 'flow' || !requiresInput) return onStart(item, {});
    setLoadingId(item.id);
    setError(null);
    try {
      const schema = await queryClient.fetchQuery(inputSchemaQuery(item.id));
      if (schema.requires_input) onAskingChange({ item, schema });
      else onStart(item, {});
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not load the crew’s questions');
    } finally {
      setLoadingId(null);
    }
  };

  const busy = pending || loadingId !== null;
  const option = (
    item: PickedItem & { description: string | null },
    requiresInput: boolean,
    Icon: typeof Users,
  ) => (
    <li key={`${item.kind}-${item.id}`}>
      <button
        type="button"
        disabled={busy}
        onClick={() => void pick({ kind: item.kind, id: item.id, name: item.name }, requiresInput)}
        className="flex w-full items-start gap-3 rounded-md border border-border px-3 py-2 text-left transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:opacity-60"
      >
        <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex flex-wrap items-center gap-2 text-sm font-medium">
            {item.name}
            {requiresInput ? <Badge variant="warning">Needs input</Badge> : null}
          </span>
          {item.description ? (
            <span className="line-clamp-2 text-xs text-muted-foreground">{item.description}</span>
          ) : null}
        </span>
        {loadingId === item.id ? <Spinner label="Loading" /> : null}
      </button>
    </li>
  );

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{asking ? asking.item.name : 'Start a crew or flow'}</DialogTitle>
          <DialogDescription>
            {asking
              ? 'This crew needs your input before it starts.'
              : 'Its progress and results appear in this conversation.'}
          </DialogDescription>
        </DialogHeader>
        {asking ? (
          <CrewInputForm
            key={asking.item.id}
            schema={asking.schema}
            pending={pending}
            onSubmit={(inputs) => onStart(asking.item, inputs)}
            onCancel={() => onAskingChange(null)}
          />
        ) : (
          <div className="flex flex-col gap-4">
            <div className="relative">
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                type="search"
                aria-label="Search crews and flows"
                placeholder="Search crews and flows"
                className="pl-9"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            {error ? <Alert>{error}</Alert> : null}
            {crews.isPending || flows.isPending ? (
              <div role="status" className="flex flex-col gap-2">
                <span className="sr-only">Loading crews and flows…</span>
                <Skeleton className="h-12" />
                <Skeleton className="h-12" />
              </div>
            ) : (
              <div className="flex max-h-[50dvh] flex-col gap-4 overflow-y-auto pr-1">
                <section aria-labelledby="picker-crews" className="flex flex-col gap-2">
                  <h3
                    id="picker-crews"
                    className="text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                  >
                    Crews
                  </h3>
                  {crewHits.length ? (
                    <ul className="flex flex-col gap-2">
                      {crewHits.map((c) => option({ kind: 'crew', ...c }, c.requires_input, Users))}
                    </ul>
                  ) : (
                    <p className="text-sm text-muted-foreground">No crews found.</p>
                  )}
                </section>
                <section aria-labelledby="picker-flows" className="flex flex-col gap-2">
                  <h3
                    id="picker-flows"
                    className="text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                  >
                    Flows
                  </h3>
                  {flowHits.length ? (
                    <ul className="flex flex-col gap-2">
                      {flowHits.map((f) => option({ kind: 'flow', ...f }, false, Workflow))}
                    </ul>
                  ) : (
                    <p className="text-sm text-muted-foreground">No flows found.</p>
                  )}
                </section>
              </div>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
