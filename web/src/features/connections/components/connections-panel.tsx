import type { TConnection, TConnectionStatus } from '@cc/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { serverDetail } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useDisconnect, useSyncNow, useTestConnection } from '../api';
import { connectionsQuery } from '../queries';
import { AddConnectionForm } from './add-connection-form';

const STATUS: Record<
  TConnectionStatus,
  { label: string; variant: 'success' | 'info' | 'danger' | 'secondary' }
> = {
  connected: { label: 'Connected', variant: 'success' },
  syncing: { label: 'Syncing', variant: 'info' },
  error: { label: 'Error', variant: 'danger' },
  never_synced: { label: 'Not synced yet', variant: 'secondary' },
};

const KIND: Record<TConnection['kind'], string> = {
  caldav: 'Calendar (CalDAV)',
  ics: 'Calendar (ICS address)',
  imap: 'Mail (IMAP, read-only)',
};

/** Profile → Connections: the person's calendars and mailboxes, their sync state, and adding one. */
export function ConnectionsPanel() {
  const list = useQuery(connectionsQuery());
  const [leaving, setLeaving] = useState<TConnection | null>(null);
  const disconnect = useDisconnect();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Connections</CardTitle>
        <CardDescription>
          Connect your own calendars and mailboxes. They sync in the background; mail is only read, never
          changed on your server. Passwords are stored encrypted and never shown again.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {list.isLoading ? <Spinner /> : null}
        {list.isError ? (
          <Alert>{serverDetail(list.error) ?? 'Could not load your connections.'}</Alert>
        ) : null}
        {list.data && list.data.length === 0 ? (
          <p className="text-muted-foreground text-sm">No connections yet.</p>
        ) : null}
        {list.data && list.data.length > 0 ? (
          <ul className="flex flex-col divide-y divide-border" aria-label="Your connections">
            {list.data.map((c) => (
              <ConnectionRow key={c.id} connection={c} onDisconnect={() => setLeaving(c)} />
            ))}
          </ul>
        ) : null}
        <AddConnectionForm />
      </CardContent>
      <ConfirmDialog
        open={leaving !== null}
        onOpenChange={(open) => !open && setLeaving(null)}
        title="Disconnect"
        description={`"${leaving?.name ?? ''}" and everything imported from it will be deleted here. Nothing changes on the server.`}
        confirmLabel="Disconnect"
        pending={disconnect.isPending}
        onConfirm={() =>
          leaving &&
          disconnect.mutate(leaving.id, {
            onSuccess: () => {
              setLeaving(null);
              notify.success('Disconnected');
            },
            onError: (err) => notify.error('Disconnect failed', serverDetail(err) ?? 'Please try again.'),
          })
        }
      />
    </Card>
  );
}

function ConnectionRow({
  connection: c,
  onDisconnect,
}: {
  connection: TConnection;
  onDisconnect: () => void;
}) {
  const test = useTestConnection();
  const sync = useSyncNow();
  const status = STATUS[c.status];
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3" aria-label={c.name}>
      <div className="flex min-w-0 flex-col gap-1">
        <span className="flex items-center gap-2 font-medium">
          {c.name} <Badge variant={status.variant}>{status.label}</Badge>
        </span>
        <span className="text-muted-foreground text-xs">
          {KIND[c.kind]} · {c.host}
          {c.username ? ` · ${c.username}` : ''} · Last sync{' '}
          {c.last_synced_at ? formatDateTime(c.last_synced_at) : 'never'}
        </span>
        {c.last_error ? (
          <p className="text-danger-text text-xs" role="status">
            {c.last_error}
          </p>
        ) : null}
        {test.data ? (
          <p
            className={test.data.ok ? 'text-success-text text-xs' : 'text-danger-text text-xs'}
            role="status"
          >
            {test.data.detail}
          </p>
        ) : null}
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={test.isPending} onClick={() => test.mutate(c.id)}>
          {test.isPending ? <Spinner /> : null}
          Test
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={sync.isPending}
          onClick={() =>
            sync.mutate(c.id, {
              onError: (err) => notify.error('Sync failed', serverDetail(err) ?? 'Please try again.'),
            })
          }
        >
          Sync now
        </Button>
        <Button variant="outline" size="sm" onClick={onDisconnect}>
          Disconnect
        </Button>
      </div>
    </li>
  );
}
