import { type TConnectionKind, type TCreateConnectionRequest, DEFAULT_MAIL_DAYS } from '@cc/contract';
import { useState } from 'react';
import { FormField } from '../../../components/form-field';
import { SelectField } from '../../../components/select-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useAddConnection } from '../api';

const KINDS = [
  { value: 'caldav', label: 'Calendar (CalDAV)' },
  { value: 'ics', label: 'Calendar (ICS address)' },
  { value: 'imap', label: 'Mail (IMAP)' },
] as const;

const EMPTY = {
  name: '',
  url: '',
  host: '',
  port: '993',
  tls: true,
  username: '',
  password: '',
  days: String(DEFAULT_MAIL_DAYS),
};

/** One form for the three kinds: each shows only the fields its kind needs. */
export function AddConnectionForm() {
  const [kind, setKind] = useState<TConnectionKind>('caldav');
  const [f, setF] = useState(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddConnection();
  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setF((prev) => ({ ...prev, [k]: k === 'tls' ? e.target.checked : e.target.value }));

  const body = (): TCreateConnectionRequest | string => {
    if (!f.name.trim()) return 'Name is required';
    if (kind === 'ics')
      return f.url.trim() ? { kind, name: f.name.trim(), url: f.url.trim() } : 'Enter the calendar address';
    if (!f.username.trim() || !f.password) return 'Enter the user name and password';
    if (kind === 'caldav') {
      if (!f.url.trim()) return 'Enter the CalDAV address';
      return {
        kind,
        name: f.name.trim(),
        url: f.url.trim(),
        username: f.username.trim(),
        password: f.password,
      };
    }
    if (!f.host.trim()) return 'Enter the mail server';
    return {
      kind,
      name: f.name.trim(),
      host: f.host.trim(),
      port: Number(f.port) || undefined,
      tls: f.tls,
      username: f.username.trim(),
      password: f.password,
      mail_days: Number(f.days) || undefined,
    };
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const b = body();
    if (typeof b === 'string') return setProblem(b);
    setProblem(null);
    add.mutate(b, {
      onSuccess: () => {
        setF(EMPTY);
        notify.success('Connected', 'The first sync runs in the background.');
      },
      onError: (err) => setProblem(serverDetail(err) ?? 'Could not add the connection.'),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Add a connection">
      {problem ? <Alert>{problem}</Alert> : null}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField id="connection-kind" label="Kind" value={kind} onChange={setKind} options={KINDS} />
        <FormField id="connection-name" label="Name">
          <Input id="connection-name" value={f.name} maxLength={120} onChange={set('name')} />
        </FormField>
        {kind === 'imap' ? null : (
          <FormField
            id="connection-url"
            label={kind === 'ics' ? 'Calendar address' : 'CalDAV address'}
            hint={kind === 'ics' ? 'The secret iCal address; it is stored encrypted.' : undefined}
          >
            <Input id="connection-url" value={f.url} onChange={set('url')} placeholder="https://" />
          </FormField>
        )}
        {kind === 'imap' ? (
          <>
            <FormField id="connection-host" label="Mail server">
              <Input
                id="connection-host"
                value={f.host}
                onChange={set('host')}
                placeholder="imap.example.com"
              />
            </FormField>
            <FormField id="connection-port" label="Port">
              <Input id="connection-port" inputMode="numeric" value={f.port} onChange={set('port')} />
            </FormField>
            <label className="flex items-center gap-2 text-sm" htmlFor="connection-tls">
              <Checkbox id="connection-tls" checked={f.tls} onChange={set('tls')} />
              Encrypted connection (TLS)
            </label>
            <FormField id="connection-days" label="Days of mail to keep">
              <Input id="connection-days" inputMode="numeric" value={f.days} onChange={set('days')} />
            </FormField>
          </>
        ) : null}
        {kind === 'ics' ? null : (
          <>
            <FormField id="connection-username" label="User name">
              <Input
                id="connection-username"
                autoComplete="off"
                value={f.username}
                onChange={set('username')}
              />
            </FormField>
            <FormField
              id="connection-password"
              label="Password"
              hint="An app password where your provider offers one."
            >
              <Input
                id="connection-password"
                type="password"
                autoComplete="new-password"
                value={f.password}
                onChange={set('password')}
              />
            </FormField>
          </>
        )}
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? <Spinner /> : null}
          Connect
        </Button>
      </div>
    </form>
  );
}
