import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { useSsoLink } from '../api';
import { loginErrorMessage } from '../login-error';

/**
 * Single sign-on found an account here with the same e-mail that it may not join by itself (not
 * verified here, its password not used since, or an administrator's): the account's password, typed
 * once, confirms that the person signing in owns it. The link then ends the account's other sessions.
 */
export function SsoLinkForm({ code }: { code: string }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const link = useSsoLink();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!password) {
      setError('Password is required');
      return;
    }
    setError(null);
    link.mutate({ code, password }, { onError: (err) => setError(loginErrorMessage(err)) });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Link single sign-on">
      <p className="text-sm text-muted-foreground">
        An account with your e-mail address already exists here. Enter its password once to link your single
        sign-on to it. Linking signs the account out on every other device and ends its API keys.
      </p>
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-col gap-2">
        <Label htmlFor="sso-link-password">Password of the existing account</Label>
        <Input
          id="sso-link-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
      </div>
      <Button type="submit" size="lg" disabled={link.isPending} className="w-full">
        {link.isPending ? <Spinner /> : null}
        {link.isPending ? 'Linking…' : 'Link and sign in'}
      </Button>
    </form>
  );
}
