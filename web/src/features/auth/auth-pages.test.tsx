import { TOKEN_STORAGE_KEY } from '@cc/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { validateSignup } from './pages/signup-page';

const TOKEN = { access_token: 'tok-new', token_type: 'bearer', expires_at: '2030-01-01T00:00:00Z' };

describe('login page: single sign-on', () => {
  it('offers "Sign in with <label>" only when public-config names a provider', async () => {
    mockApi({
      'GET /api/public-config': {
        body: { contact_email: 'x@y.example', oidc: { label: 'Acme ID', start_url: '/api/auth/oidc/start' } },
      },
    });
    renderApp({ path: '/login' });
    expect(await screen.findByRole('link', { name: 'Sign in with Acme ID' })).toHaveAttribute(
      'href',
      '/api/auth/oidc/start',
    );
  });

  it('shows no single sign-on without a provider', async () => {
    mockApi({ 'GET /api/public-config': { body: { contact_email: 'x@y.example' } } });
    renderApp({ path: '/login' });
    await screen.findByRole('button', { name: 'Login' });
    await waitFor(() => expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument());
  });

  it('exchanges the one-time code from the callback for a session, once', async () => {
    const { callsTo } = mockApi({
      'POST /api/auth/oidc/exchange': { body: TOKEN },
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
    });
    const { router } = renderApp({ path: '/login?sso=one-time-code' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/ceodashboard'));
    expect(callsTo('POST', '/api/auth/oidc/exchange').map((c) => c.body)).toEqual([
      { code: 'one-time-code' },
    ]);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toContain('tok-new');
  });

  it('shows why a single sign-on failed', async () => {
    mockApi({
      'POST /api/auth/oidc/exchange': {
        status: 400,
        body: { detail: 'This sign-in link has expired or was already used. Please try again.' },
      },
    });
    renderApp({ path: '/login?sso=spent' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sign-in link has expired or was already used.',
    );
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('shows the reason the callback sent back', async () => {
    mockApi({});
    renderApp({
      path: '/login?sso_error=Your%20identity%20provider%20did%20not%20confirm%20your%20e-mail%20address.',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your identity provider did not confirm your e-mail address.',
    );
  });
});

describe('login page', () => {
  it('asks for both fields before calling the server', async () => {
    const { callsTo } = mockApi({});
    renderApp({ path: '/login' });
    await userEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter both email and password.');
    await userEvent.type(screen.getByLabelText('Email'), 'maya@demo.example');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter both email and password.');
    // Stale once a field changes.
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(callsTo('POST', '/api/auth/token')).toHaveLength(0);
  });

  it("shows the server's detail on failure and stays signed out", async () => {
    mockApi({ 'POST /api/auth/token': { status: 401, body: { detail: 'Incorrect email or password' } } });
    renderApp({ path: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'maya@demo.example');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await userEvent.type(screen.getByLabelText('Password'), '!');
    expect(screen.queryByText('Incorrect email or password')).not.toBeInTheDocument();
  });

  it('shows the lockout detail (429) on the sign-in form', async () => {
    const detail = 'Too many failed sign-in attempts for this account. Please try again in 15 minutes.';
    mockApi({ 'POST /api/auth/token': { status: 429, body: { detail } } });
    renderApp({ path: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'maya@demo.example');
    await userEvent.type(screen.getByLabelText('Password'), 'right-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('says "Login failed" without a detail and "An error occurred during login." on a network error', async () => {
    mockApi({
      'POST /api/auth/token': { status: 500, body: undefined, statusText: 'Internal Server Error' },
    });
    renderApp({ path: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'maya@demo.example');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed');

    mockApi({ 'POST /api/auth/token': () => Promise.reject(new TypeError('Failed to fetch')) });
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('An error occurred during login.'),
    );
  });

  it('signs in with remember-me and goes to the safe redirect target', async () => {
    const user = makeUser({ first_name: 'Maya' });
    const { callsTo } = mockApi({
      'POST /api/auth/token': { body: TOKEN },
      'GET /api/users/me': { body: user },
    });
    const { router } = renderApp({ path: '/login?redirect=%2Fapp%2Fprofile' });
    await userEvent.type(await screen.findByLabelText('Email'), 'maya@demo.example');
    await userEvent.type(screen.getByLabelText('Password'), 'demo-password-1');
    await userEvent.click(screen.getByLabelText('Remember me'));
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/profile'));
    const [sent] = callsTo('POST', '/api/auth/token');
    expect(sent.body).toBe('username=maya%40demo.example&password=demo-password-1&remember_me=true');
    expect(sent.headers.Authorization).toBeUndefined();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('tok-new');
  });

  it('ignores an unsafe redirect and sends waitlisted users to /waitlist', async () => {
    mockApi({ 'POST /api/auth/token': { body: TOKEN }, 'GET /api/users/me': { body: makeUser() } });
    const first = renderApp({ path: '/login?redirect=https%3A%2F%2Fevil.example%2Fapp' });
    await userEvent.type(await screen.findByLabelText('Email'), 'maya@demo.example');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/app/ceodashboard'));
    first.unmount();
    localStorage.clear();

    mockApi({
      'POST /api/auth/token': { body: TOKEN },
      'GET /api/users/me': { body: makeUser({ user_level: 'waitlisted' }) },
    });
    const second = renderApp({ path: '/login?redirect=%2Fapp%2Fprofile' });
    await userEvent.type(await screen.findByLabelText('Email'), 'new@demo.example');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/waitlist'));
  });

  it('sends a signed-in visitor straight to the dashboard', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ first_name: 'Olivia', user_level: 'ceo' }) } });
    const { router } = renderApp({ path: '/login', token: 'tok' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/ceodashboard'));
    expect(await screen.findByText('Olivia')).toBeInTheDocument();
  });
});

describe('signup page', () => {
  const base = {
    email: 'a@b.co',
    first_name: 'A',
    last_name: 'B',
    password: 'secret1',
    confirm_password: 'secret1',
  };

  it('validates in the order of the spec', () => {
    expect(validateSignup({ ...base, last_name: '  ' })).toBe('Please fill in all fields.');
    expect(validateSignup({ ...base, confirm_password: 'secret2' })).toBe('Passwords do not match.');
    expect(validateSignup({ ...base, password: 'abc', confirm_password: 'abc' })).toBe(
      'Password must be at least 6 characters long.',
    );
    expect(validateSignup(base)).toBeNull();
  });

  async function fill(values: Partial<typeof base>) {
    const v = { ...base, ...values };
    const labels: [string, string][] = [
      ['Email', v.email],
      ['First Name', v.first_name],
      ['Last Name', v.last_name],
      ['Password', v.password],
      ['Confirm Password', v.confirm_password],
    ];
    for (const [label, value] of labels) {
      const input = await screen.findByLabelText(label);
      await userEvent.clear(input);
      if (value) await userEvent.type(input, value);
    }
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
  }

  it('shows the validation messages on the page without calling the server', async () => {
    const { calls } = mockApi({});
    renderApp({ path: '/signup' });
    await fill({ first_name: '' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields.');
    await fill({ confirm_password: 'different' });
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match.');
    await fill({ password: 'abc', confirm_password: 'abc' });
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters long.');
    await userEvent.type(screen.getByLabelText('Password'), 'defg');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows a server failure in an alert and a "Signup Failed" toast', async () => {
    mockApi({
      'POST /api/users/register': {
        status: 409,
        body: { detail: 'An account with this email already exists.' },
      },
    });
    renderApp({ path: '/signup' });
    await fill({});
    expect(await screen.findByText('Signup Failed')).toBeInTheDocument();
    expect(screen.getAllByText('An account with this email already exists.').length).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('registers, toasts, signs in and lands a new (waitlisted) user on the waitlist page', async () => {
    const created = makeUser({ first_name: 'Ada', email: 'ada@b.co', user_level: 'waitlisted' });
    const { calls } = mockApi({
      'POST /api/users/register': { status: 201, body: created },
      'POST /api/auth/token': { body: TOKEN },
      'GET /api/users/me': { body: created },
    });
    const { router } = renderApp({ path: '/signup' });
    await fill({ email: 'ada@b.co', first_name: 'Ada' });
    expect(await screen.findByText('Account Created')).toBeInTheDocument();
    expect(screen.getByText('Registration successful. Logging you in...')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/waitlist'));
    expect(await screen.findByText("You're on the Waitlist!")).toBeInTheDocument();
    expect(screen.getByText('Ada')).toBeInTheDocument();
    expect(calls[0].body).toEqual({
      email: 'ada@b.co',
      password: 'secret1',
      first_name: 'Ada',
      last_name: 'B',
    });
  });
});

describe('waitlist page', () => {
  it('sends anonymous visitors to /login and approved users to the dashboard', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'user' }) } });
    const anon = renderApp({ path: '/waitlist' });
    await waitFor(() => expect(anon.router.state.location.pathname).toBe('/login'));
    anon.unmount();
    const approved = renderApp({ path: '/waitlist', token: 'tok' });
    await waitFor(() => expect(approved.router.state.location.pathname).toBe('/app/ceodashboard'));
  });

  it('thanks the user, names their e-mail, and logs out', async () => {
    const { callsTo } = mockApi({
      'GET /api/users/me': {
        body: makeUser({ user_level: 'waitlisted', first_name: 'Ada', email: 'ada@b.co' }),
      },
      'POST /api/auth/logout': { status: 204 },
    });
    const { router } = renderApp({ path: '/waitlist', token: 'tok' });
    expect(await screen.findByText('Ada')).toBeInTheDocument();
    expect(screen.getByText('ada@b.co')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(callsTo('POST', '/api/auth/logout')[0].headers.Authorization).toBe('Bearer tok');
  });
});
