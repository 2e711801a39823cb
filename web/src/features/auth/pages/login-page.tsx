import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PublicLayout } from '../../../components/public-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth';
import { DEFAULT_APP_PATH, safeAppRedirect } from '../../../lib/redirect';
import { usePublicConfig } from '../../../lib/queries/public-config';
import { useSignIn, useSsoExchange } from '../api';
import { AuthCard } from '../components/auth-card';
import { SsoLinkForm } from '../components/sso-link-form';
import { loginErrorMessage } from '../login-error';
import { useHydrated } from '../../../lib/use-hydrated';

export { loginErrorMessage };

export default function LoginPage() {
  const hydrated = useHydrated();
  const { token, user } = useAuth();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signIn = useSignIn();
  const sso = useSsoExchange();
  const { data: config } = usePublicConfig();
  const ssoCode = params.get('sso');
  const ssoError = params.get('sso_error');
  const ssoLink = params.get('sso_link');
  // The code is single-use: exchange it once, even if the page renders again.
  const exchanged = useRef(false);
  useEffect(() => {
    if (!ssoCode || exchanged.current) return;
    exchanged.current = true;
    sso.mutate(ssoCode, { onError: (err) => setError(loginErrorMessage(err)) });
  }, [ssoCode, sso]);

  const target = safeAppRedirect(params.get('redirect')) ?? DEFAULT_APP_PATH;
  if (token) return <Navigate to={user?.user_level === 'waitlisted' ? '/waitlist' : target} replace />;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError('Please enter both email and password.');
      return;
    }
    setError(null);
    signIn.mutate({ email, password, rememberMe }, { onError: (err) => setError(loginErrorMessage(err)) });
  };

  if (ssoLink) {
    return (
      <PublicLayout nav="signup">
        <AuthCard title="Link single sign-on" subtitle="Confirm that the existing account is yours.">
          <SsoLinkForm code={ssoLink} />
        </AuthCard>
      </PublicLayout>
    );
  }

  return (
    <PublicLayout nav="signup">
      <AuthCard title="Welcome back" subtitle="Sign in to your command centre.">
        {/* A message about what was sent is stale once a field changes. */}
        <form
          onSubmit={onSubmit}
          onChange={() => setError(null)}
          noValidate
          className="flex flex-col gap-5"
          aria-label="Login"
        >
          {/* Disabled until the app is live: this page is prerendered (web/src/prerender.tsx). */}
          <fieldset disabled={!hydrated} className="contents">
            {error ? <Alert>{error}</Alert> : null}
            {!error && ssoError ? <Alert>{ssoError}</Alert> : null}
            {sso.isPending ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
                <Spinner /> Signing you in…
              </p>
            ) : null}
            <div className="flex flex-col gap-2">
              <Label htmlFor="login-email">Email</Label>
              <Input
                id="login-email"
                type="email"
                autoComplete="email"
                inputMode="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                autoFocus
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="login-password">Password</Label>
              <Input
                id="login-password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
            <label
              htmlFor="login-remember"
              className="flex w-fit cursor-pointer items-center gap-2.5 text-sm"
            >
              <input
                id="login-remember"
                type="checkbox"
                checked={rememberMe}
                onChange={(e) => setRememberMe(e.target.checked)}
                className="size-4 rounded border-border accent-primary"
              />
              Remember me
            </label>
            <Button type="submit" size="lg" disabled={signIn.isPending} className="w-full">
              {signIn.isPending ? <Spinner /> : null}
              {signIn.isPending ? 'Logging in…' : 'Login'}
            </Button>
          </fieldset>
        </form>
        {config?.oidc ? (
          <div className="mt-5 flex flex-col gap-3">
            <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
              <span className="h-px flex-1 bg-border" />
              or
              <span className="h-px flex-1 bg-border" />
            </div>
            {/* A full page load: the browser goes to the identity provider and comes back here. */}
            <a
              href={config.oidc.start_url}
              className={cn(buttonVariants({ variant: 'outline', size: 'lg' }), 'w-full')}
            >
              Sign in with {config.oidc.label}
            </a>
          </div>
        ) : null}
        <p className="mt-6 text-center text-sm text-muted-foreground">
          No account yet?{' '}
          <Link to="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign Up
          </Link>
        </p>
      </AuthCard>
    </PublicLayout>
  );
}
