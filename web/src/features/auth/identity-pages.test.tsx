import { TOKEN_STORAGE_KEY } from '@cc/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const TOKEN = { access_token: 'tok-linked', token_type: 'bearer', expires_at: '2030-01-01T00:00:00Z' };

/** The browser's address as an e-mailed link opens it (the memory router does not set it). */
const openAt = (url: string) => window.history.replaceState(null, '', url);

afterEach(() => openAt('/'));

describe('single sign-on: linking an existing account', () => {
  it('asks for the account password once and signs in with the linked session', async () => {
    const { callsTo } = mockApi({
      'POST /api/auth/oidc/link': { body: TOKEN },
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
    });
    const { router } = renderApp({ path: '/login?sso_link=link-code' });
    expect(await screen.findByRole('heading', { name: 'Link single sign-on' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Password is required');
    await userEvent.type(screen.getByLabelText('Password of the existing account'), 'its-password');
    await userEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/ceodashboard'));
    expect(callsTo('POST', '/api/auth/oidc/link').map((c) => c.body)).toEqual([
      { code: 'link-code', password: 'its-password' },
    ]);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toContain('tok-linked');
  });

  it('shows a wrong password and stays signed out', async () => {
    mockApi({ 'POST /api/auth/oidc/link': { status: 401, body: { detail: 'Incorrect password' } } });
    renderApp({ path: '/login?sso_link=link-code' });
    await userEvent.type(await screen.findByLabelText('Password of the existing account'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect password');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});

describe('/confirm-email', () => {
  it('posts the secret from the link once and drops it from the address', async () => {
    openAt('/confirm-email#token=secret-1');
    const { callsTo } = mockApi({
      'POST /api/auth/email/confirm': { body: { purpose: 'verify', email: 'zara@test.example' } },
    });
    renderApp({ path: '/confirm-email' });
    expect(
      await screen.findByText('Your e-mail address zara@test.example is confirmed.'),
    ).toBeInTheDocument();
    expect(callsTo('POST', '/api/auth/email/confirm').map((c) => c.body)).toEqual([{ token: 'secret-1' }]);
    expect(window.location.hash).toBe('');
  });

  it('says when the link was used or has expired', async () => {
    openAt('/confirm-email#token=spent');
    mockApi({
      'POST /api/auth/email/confirm': {
        status: 400,
        body: { detail: 'This confirmation link has expired or was already used.' },
      },
    });
    renderApp({ path: '/confirm-email' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This confirmation link has expired');
  });
});

describe('waitlist page: an unverified address', () => {
  it('asks to confirm the address and sends the link again', async () => {
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'waitlisted', email_verified: false }) },
      'POST /api/users/me/email-verification': { body: { email_sent: true } },
    });
    renderApp({ path: '/waitlist', token: 'tok' });
    await userEvent.click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText('Link Sent')).toBeInTheDocument();
    expect(callsTo('POST', '/api/users/me/email-verification')).toHaveLength(1);
  });

  it('says nothing of it once the address is verified', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'waitlisted', email_verified: true }) } });
    renderApp({ path: '/waitlist', token: 'tok' });
    await screen.findByRole('heading', { name: "You're on the Waitlist!" });
    await screen.findByRole('button', { name: /logout/i });
    expect(screen.queryByRole('button', { name: 'Send the link again' })).not.toBeInTheDocument();
  });
});

describe('profile page: an unverified address', () => {
  it('offers the verification link again to an approved account that never confirmed it', async () => {
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'user', email_verified: false }) },
      'POST /api/users/me/email-verification': { body: { email_sent: false } },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    await userEvent.click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText('Link Not Sent')).toBeInTheDocument();
    expect(callsTo('POST', '/api/users/me/email-verification')).toHaveLength(1);
  });
});
