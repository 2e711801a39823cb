import { SIGNUP_PASSWORD_MIN } from '@cc/contract';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { PublicLayout } from '../../../components/public-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { serverDetail } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { DEFAULT_APP_PATH } from '../../../lib/redirect';
import { notify } from '../../../lib/toast';
import { type RegisterInput, useRegister, useSignIn } from '../api';
import { AuthCard } from '../components/auth-card';
import { useHydrated } from '../../../lib/use-hydrated';

interface SignupValues extends RegisterInput {
  confirm_password: string;
}

const EMPTY: SignupValues = { email: '', first_name: '', last_name: '', password: '', confirm_password: '' };

/** The sign-up form's checks, in the order the spec lists them; null when the values may be sent. */
export function validateSignup(v: SignupValues): string | null {
  const filled = [v.email.trim(), v.first_name.trim(), v.last_name.trim(), v.password, v.confirm_password];
  if (filled.some((f) => !f)) return 'Please fill in all fields.';
  if (v.password !== v.confirm_password) return 'Passwords do not match.';
  if (v.password.length < SIGNUP_PASSWORD_MIN) return 'Password must be at least 6 characters long.';
  return null;
}

export function signupErrorMessage(err: unknown): string {
  return serverDetail(err) || (err instanceof Error && err.message) || 'Signup failed. Please try again.';
}

const FIELDS: { name: keyof SignupValues; label: string; type: string; autoComplete: string }[] = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'first_name', label: 'First Name', type: 'text', autoComplete: 'given-name' },
  { name: 'last_name', label: 'Last Name', type: 'text', autoComplete: 'family-name' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
  { name: 'confirm_password', label: 'Confirm Password', type: 'password', autoComplete: 'new-password' },
];

export default function SignupPage() {
  const hydrated = useHydrated();
  const { token, user } = useAuth();
  const navigate = useNavigate();
  const [values, setValues] = useState<SignupValues>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const register = useRegister();
  const signIn = useSignIn();
  const busy = register.isPending || signIn.isPending;

  if (token && !busy) {
    return <Navigate to={user?.user_level === 'waitlisted' ? '/waitlist' : DEFAULT_APP_PATH} replace />;
  }

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const problem = validateSignup(values);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    const { confirm_password: _confirm, ...input } = values;
    try {
      await register.mutateAsync(input);
    } catch (err) {
      const message = signupErrorMessage(err);
      setError(message);
      notify.error('Signup Failed', message);
      return;
    }
    notify.success('Account Created', 'Registration successful. Logging you in...');
    try {
      const me = await signIn.mutateAsync({
        email: input.email,
        password: input.password,
        rememberMe: false,
      });
      navigate(me.user_level === 'waitlisted' ? '/waitlist' : DEFAULT_APP_PATH, { replace: true });
    } catch {
      notify.error('Login failed', 'Please log in with your new account.');
      navigate('/login', { replace: true });
    }
  };

  return (
    <PublicLayout nav="login">
      <AuthCard title="Request beta access" subtitle="Create your account to join the waitlist.">
        {/* A message about what was sent is stale once a field changes. */}
        <form
          onSubmit={onSubmit}
          onChange={() => setError(null)}
          noValidate
          className="flex flex-col gap-4"
          aria-label="Sign up"
        >
          {/* Disabled until the app is live: this page is prerendered (web/src/prerender.tsx). */}
          <fieldset disabled={!hydrated} className="contents">
            {error ? <Alert>{error}</Alert> : null}
            {FIELDS.map((f) => (
              <div key={f.name} className="flex flex-col gap-2">
                <Label htmlFor={`signup-${f.name}`}>{f.label}</Label>
                <Input
                  id={`signup-${f.name}`}
                  name={f.name}
                  type={f.type}
                  autoComplete={f.autoComplete}
                  value={values[f.name]}
                  onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
                  autoFocus={f.name === 'email'}
                />
              </div>
            ))}
            <Button type="submit" size="lg" disabled={busy} className="mt-1 w-full">
              {busy ? <Spinner /> : null}
              {busy ? 'Creating account…' : 'Sign Up'}
            </Button>
          </fieldset>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Login
          </Link>
        </p>
      </AuthCard>
    </PublicLayout>
  );
}
