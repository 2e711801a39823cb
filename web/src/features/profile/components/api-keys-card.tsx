import {
  API_KEY_DOMAINS,
  API_KEY_RECENT_SIGN_IN_MINUTES,
  type TApiKey,
  type TCreatedApiKey,
} from '@cc/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormField } from '../../../components/form-field';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError, serverDetail } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api-keys-api';
import { McpClientSnippet } from './mcp-client-snippet';

const DOMAIN_LABELS: Record<(typeof API_KEY_DOMAINS)[number], string> = {
  goals: 'Goals',
  tasks: 'Tasks',
  notes: 'Notes',
  contacts: 'Contacts',
  comms: 'Comms',
  conversations: 'Conversations',
  runs: 'Runs',
  brief: 'Brief',
};

/** Personal API keys for other tools (scripts, a desktop assistant over /mcp): made, listed and revoked here. */
export function ApiKeysCard() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<TApiKey | null>(null);
  const revoke = useRevokeApiKey();

  return (
    <Card>
      <CardHeader>
        <CardTitle>API keys</CardTitle>
        <CardDescription>
          Let other tools act as you, limited to the scopes you choose. A key is shown once; revoke it to stop
          it at once. Making a key asks for your password unless you signed in within the last{' '}
          {API_KEY_RECENT_SIGN_IN_MINUTES} minutes, and you get an e-mail about every new key. Changing your
          password or signing out everywhere revokes all your keys.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
        <CreateKeyForm onCreated={setCreated} />
        {keys.isLoading ? <Spinner /> : null}
        {keys.isError ? <Alert>{serverDetail(keys.error) ?? 'Could not load your API keys.'}</Alert> : null}
        {keys.data && keys.data.length === 0 ? (
          <p className="text-muted-foreground text-sm">No API keys yet.</p>
        ) : null}
        {keys.data && keys.data.length > 0 ? (
          <ul className="flex flex-col divide-y divide-border" aria-label="Your API keys">
            {keys.data.map((k) => (
              <li key={k.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                <div className="flex min-w-0 flex-col gap-1">
                  <span className="font-medium">{k.name}</span>
                  <code className="text-muted-foreground text-xs">{k.prefix}…</code>
                  <div className="flex flex-wrap gap-1">
                    {k.scopes.map((s) => (
                      <Badge key={s} variant="outline">
                        {s}
                      </Badge>
                    ))}
                  </div>
                  <span className="text-muted-foreground text-xs">
                    Created {formatDate(k.created_at)} · Last used{' '}
                    {k.last_used_at ? formatDate(k.last_used_at) : 'never'} · Expires{' '}
                    {k.expires_at ? formatDate(k.expires_at) : 'never'}
                  </span>
                </div>
                <Button variant="outline" size="sm" onClick={() => setRevoking(k)}>
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : null}
        {created ? null : <McpClientSnippet />}
      </CardContent>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke API key"
        description={`Tools using "${revoking?.name ?? ''}" stop working at once.`}
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              setRevoking(null);
              notify.success('API key revoked');
            },
            onError: (err) => notify.error('Revoke failed', serverDetail(err) ?? 'Please try again.'),
          })
        }
      />
    </Card>
  );
}

function NewSecret({ created, onDone }: { created: TCreatedApiKey; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-2 rounded-md border border-primary/40 p-3" role="status">
      <p className="text-sm">Copy the key "{created.name}" now: it will not be shown again.</p>
      <Input
        readOnly
        aria-label="New API key"
        value={created.secret}
        onFocus={(e) => e.currentTarget.select()}
        className="font-mono text-xs"
      />
      <div className="flex gap-2">
        <Button
          size="sm"
          onClick={() =>
            navigator.clipboard
              ?.writeText(created.secret)
              .then(() => notify.success('Copied'))
              .catch(() => notify.error('Copy failed', 'Select the key and copy it.'))
          }
        >
          Copy key
        </Button>
        <Button size="sm" variant="outline" onClick={onDone}>
          Done
        </Button>
      </div>
      <McpClientSnippet apiKey={created.secret} />
    </div>
  );
}

/** The server asks for the current password (422 on `current_password`): the session is not a recent sign-in. */
function asksForPassword(err: unknown): boolean {
  if (!isApiError(err) || err.status !== 422) return false;
  const detail = (err.data as { detail?: unknown } | null)?.detail;
  return (
    Array.isArray(detail) &&
    detail.some((d) => Array.isArray(d?.loc) && (d.loc as unknown[]).includes('current_password'))
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (k: TCreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const [needsPassword, setNeedsPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [scopes, setScopes] = useState<Set<string>>(new Set());
  const [expires, setExpires] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateApiKey();

  const toggle = (scope: string) =>
    setScopes((prev) => {
      const next = new Set(prev);
      if (next.has(scope)) next.delete(scope);
      else next.add(scope);
      return next;
    });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem('Name is required');
    if (scopes.size === 0) return setProblem('Choose at least one scope');
    if (needsPassword && !password) return setProblem('Enter your current password');
    setProblem(null);
    create.mutate(
      {
        name: name.trim(),
        scopes: [...scopes],
        // A date picked here means "through that day" in the person's own time zone.
        expires_at: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
        ...(needsPassword ? { current_password: password } : {}),
      },
      {
        onSuccess: (k) => {
          onCreated(k);
          setName('');
          setScopes(new Set());
          setExpires('');
          setPassword('');
        },
        onError: (err) => {
          if (asksForPassword(err)) setNeedsPassword(true);
          setProblem(serverDetail(err) ?? 'Could not create the key.');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Create API key">
      {problem ? <Alert>{problem}</Alert> : null}
      <FormField id="api-key-name" label="Key name">
        <Input id="api-key-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </FormField>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium text-sm">Scopes</legend>
        <div className="grid grid-cols-[auto_auto_auto] items-center gap-x-6 gap-y-1 text-sm">
          {API_KEY_DOMAINS.map((d) => (
            <div key={d} className="contents">
              <span>{DOMAIN_LABELS[d]}</span>
              {(['read', 'write'] as const).map((mode) => (
                <span key={mode} className="flex items-center gap-2">
                  <Checkbox
                    id={`scope-${mode}-${d}`}
                    checked={scopes.has(`${mode}:${d}`)}
                    onChange={() => toggle(`${mode}:${d}`)}
                    aria-label={`${mode}:${d}`}
                  />
                  <label htmlFor={`scope-${mode}-${d}`}>{mode === 'read' ? 'Read' : 'Write'}</label>
                </span>
              ))}
            </div>
          ))}
        </div>
      </fieldset>
      <FormField id="api-key-expiry" label="Expires (optional)">
        <Input id="api-key-expiry" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
      </FormField>
      {needsPassword ? (
        <FormField
          id="api-key-password"
          label="Current password"
          hint={`Needed when you signed in more than ${API_KEY_RECENT_SIGN_IN_MINUTES} minutes ago.`}
        >
          <Input
            id="api-key-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Spinner /> : null}
          Create key
        </Button>
      </div>
    </form>
  );
}
