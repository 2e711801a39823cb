import { TOKEN_STORAGE_KEY } from '@cc/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures';
import { mockApi } from '../test/mock-api';
import { renderApp } from '../test/render';

describe('signed-in area guards', () => {
  it('sends anonymous visitors to /login with the path they wanted', async () => {
    mockApi({});
    const { router } = renderApp({ path: '/app/notes?from=mail' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fapp%2Fnotes%3Ffrom%3Dmail');
  });

  it('sends waitlisted users to /waitlist', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'waitlisted' }) } });
    const { router } = renderApp({ path: '/app/ceodashboard', token: 'tok' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/waitlist'));
  });

  it('sends a non-admin at /app/admin to /app, which opens the dashboard', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'ceo', first_name: 'Olivia' }) } });
    const { router } = renderApp({ path: '/app/admin', token: 'tok' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/ceodashboard'));
    expect(await screen.findByRole('heading', { name: /Welcome back,/ })).toHaveTextContent(
      'Welcome back, Olivia',
    );
  });

  it('keeps the AI Factory to ceo and admin', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'user' }) } });
    const { router } = renderApp({ path: '/app/ai-factory', token: 'tok' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/ceodashboard'));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Factory' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Contacts' })).toHaveAttribute('href', '/app/contacts');
  });

  it('highlights Run inside a conversation and a test run, and only the current section', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) } });
    const { router } = renderApp({ path: '/app/conversations/conv-1', token: 'tok' });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Run' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Tasks' })).not.toHaveAttribute('aria-current');
    await act(() => router.navigate('/app/test-run'));
    expect(within(nav).getByRole('link', { name: 'Run' })).toHaveAttribute('aria-current', 'page');
    await act(() => router.navigate('/app/my-tasks'));
    expect(within(nav).getByRole('link', { name: 'Run' })).not.toHaveAttribute('aria-current');
    expect(within(nav).getByRole('link', { name: 'Tasks' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows admins the Factory link, the Super Admin page and menu item', async () => {
    mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'admin', first_name: 'Alex' }) },
      'GET /api/users/': { body: [] },
      'GET /api/organizations': { body: [] },
    });
    renderApp({ path: '/app/admin', token: 'tok' });
    expect(await screen.findByRole('heading', { name: 'Super Admin' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Factory' })).toHaveAttribute('href', '/app/ai-factory');
    await userEvent.click(screen.getByRole('button', { name: /^Profile menu/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Super Admin' })).toHaveAttribute('href', '/app/admin');
    expect(within(menu).getByRole('menuitem', { name: 'Organization' })).toHaveAttribute(
      'href',
      '/app/organization',
    );
  });

  it('greets by e-mail when there is no first name', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ first_name: null, email: 'nofirst@example.com' }) } });
    renderApp({ path: '/app', token: 'tok' });
    expect(await screen.findByRole('heading', { name: /Welcome back,/ })).toHaveTextContent(
      'Welcome back, nofirst@example.com',
    );
    expect(screen.getByRole('link', { name: 'Add Notes' })).toHaveAttribute('href', '/app/notes');
  });
});

describe('session handling', () => {
  it('ends the session on a 401 profile answer: one toast (Session Expired), token cleared, back to login', async () => {
    mockApi({ 'GET /api/users/me': { status: 401, body: { detail: 'Session expired' } } });
    const { router } = renderApp({ path: '/app/profile', token: 'tok' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText('Session Expired')).toBeInTheDocument();
    // One ended session, one toast: no "Session Issue" stacked on the request layer's "Session Expired".
    expect(screen.queryByText('Session Issue')).not.toBeInTheDocument();
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(1);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('also ends it on 404 (account gone), without retrying', async () => {
    const { callsTo } = mockApi({ 'GET /api/users/me': { status: 404, body: { detail: 'User not found' } } });
    const { router } = renderApp({ path: '/app/ceodashboard', token: 'tok' });
    expect(await screen.findByText('Session Issue')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(callsTo('GET', '/api/users/me')).toHaveLength(1);
  });

  it('retries other profile failures twice, then shows "Profile Error" and keeps the session', async () => {
    const { callsTo } = mockApi({ 'GET /api/users/me': { status: 500, body: { detail: 'Internal error' } } });
    renderApp({ path: '/app/ceodashboard', token: 'tok' });
    expect(
      await screen.findByText('Profile Error', { selector: '[data-title]' }, { timeout: 6000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Could not load your profile. Please try again later.', {
        selector: '[data-description]',
      }),
    );
    expect(callsTo('GET', '/api/users/me')).toHaveLength(3);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('tok');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  }, 10000);

  it('logs out from the profile menu', async () => {
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'POST /api/auth/logout': { status: 204 },
    });
    const { router } = renderApp({ path: '/app/ceodashboard', token: 'tok' });
    await userEvent.click(await screen.findByRole('button', { name: /^Profile menu/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(callsTo('POST', '/api/auth/logout')).toHaveLength(1);
  });

  it('follows another tab signing out', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser() } });
    const { router } = renderApp({ path: '/app/ceodashboard', token: 'tok' });
    expect(await screen.findByRole('heading', { name: /Welcome back,/ })).toBeInTheDocument();
    act(() => {
      localStorage.removeItem(TOKEN_STORAGE_KEY);
      window.dispatchEvent(
        new StorageEvent('storage', { key: TOKEN_STORAGE_KEY, oldValue: 'tok', newValue: null }),
      );
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('follows another tab signing in', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ first_name: 'Maya' }) } });
    const { router } = renderApp({ path: '/login' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    act(() => {
      localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-other-tab');
      window.dispatchEvent(
        new StorageEvent('storage', { key: TOKEN_STORAGE_KEY, newValue: 'tok-other-tab' }),
      );
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/ceodashboard'));
    expect(await screen.findByText('Maya')).toBeInTheDocument();
  });
});
