import { TOKEN_STORAGE_KEY } from '@cc/contract';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/mock-api';
import {
  ApiError,
  api,
  errorMessageFrom,
  getToken,
  SESSION_INVALID_EVENT,
  setToken,
  subscribeToken,
} from './api';
import { notify } from './toast';

describe('errorMessageFrom', () => {
  it('uses a string detail', () => {
    expect(errorMessageFrom({ detail: 'Incorrect email or password' }, 'Unauthorized')).toBe(
      'Incorrect email or password',
    );
  });

  it("uses the first item's msg when detail is a list of field errors", () => {
    const data = {
      detail: [
        { loc: ['body', 'email'], msg: 'Invalid email address', type: 'value_error' },
        { loc: ['body', 'password'], msg: 'Too short', type: 'value_error' },
      ],
    };
    expect(errorMessageFrom(data, 'Unprocessable Entity')).toBe('Invalid email address');
  });

  it('falls back to the JSON text of the body, then to the status text', () => {
    expect(errorMessageFrom({ error: 'boom' }, 'Internal Server Error')).toBe('{"error":"boom"}');
    expect(errorMessageFrom(undefined, 'Bad Gateway')).toBe('Bad Gateway');
    expect(errorMessageFrom(undefined, '', 502)).toBe('Request failed with status 502');
  });
});

describe('api()', () => {
  it('sends the stored bearer token and parses JSON', async () => {
    setToken('tok-1');
    const { calls } = mockApi({ 'GET /api/users/me': { body: { id: 'u1' } } });
    await expect(api('/api/users/me')).resolves.toEqual({ id: 'u1' });
    expect(calls[0].headers.Authorization).toBe('Bearer tok-1');
  });

  it('encodes form bodies and query strings, and skips empty query values', async () => {
    const { calls } = mockApi({
      'POST /api/auth/token': { body: { access_token: 't' } },
      'GET /api/users/': { body: [] },
    });
    await api('/api/auth/token', {
      method: 'POST',
      form: { username: 'a@b.co', password: 'p w' },
      anonymous: true,
    });
    expect(calls[0].headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(calls[0].body).toBe('username=a%40b.co&password=p+w');
    await api('/api/users/', { query: { search: '', skip: 0, limit: 50 } });
    expect(calls[1].search.toString()).toBe('skip=0&limit=50');
  });

  it('returns undefined for 204', async () => {
    mockApi({ 'DELETE /api/users/u1': { status: 204 } });
    await expect(api('/api/users/u1', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('throws an ApiError carrying status, data and the detail message', async () => {
    mockApi({
      'POST /api/users/register': {
        status: 409,
        body: { detail: 'An account with this email already exists.' },
      },
    });
    const err = (await api('/api/users/register', { method: 'POST', json: {} }).catch((e) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(409);
    expect(err.data).toEqual({ detail: 'An account with this email already exists.' });
    expect(err.message).toBe('An account with this email already exists.');
  });

  it.each([401, 403])(
    'on %i with a token: clears the token, fires session-invalid and toasts',
    async (status) => {
      setToken('tok-old');
      const onInvalid = vi.fn();
      window.addEventListener(SESSION_INVALID_EVENT, onInvalid);
      const toastError = vi.spyOn(notify, 'error');
      mockApi({ 'GET /api/tasks/': { status, body: { detail: 'Not authenticated' } } });

      await expect(api('/api/tasks/')).rejects.toMatchObject({ status });

      expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
      expect(onInvalid).toHaveBeenCalledTimes(1);
      expect(toastError).toHaveBeenCalledWith('Session Expired', 'Please log in again.', expect.anything());
      window.removeEventListener(SESSION_INVALID_EVENT, onInvalid);
    },
  );

  it('a rate limit (429) is an error with its detail, never a session expiry', async () => {
    setToken('tok-keep');
    const onInvalid = vi.fn();
    window.addEventListener(SESSION_INVALID_EVENT, onInvalid);
    const detail = 'Too many runs started (at most 10 a minute). Please try again in 40 seconds.';
    mockApi({ 'POST /api/flow-runs/': { status: 429, body: { detail } } });
    await expect(api('/api/flow-runs/', { method: 'POST', json: {} })).rejects.toMatchObject({
      status: 429,
      message: detail,
    });
    expect(getToken()).toBe('tok-keep');
    expect(onInvalid).not.toHaveBeenCalled();
    window.removeEventListener(SESSION_INVALID_EVENT, onInvalid);
  });

  it('leaves the session alone on 401 without a token, and for the login call itself', async () => {
    const onInvalid = vi.fn();
    window.addEventListener(SESSION_INVALID_EVENT, onInvalid);
    mockApi({
      'GET /api/public-config': { status: 401, body: { detail: 'no' } },
      'POST /api/auth/token': { status: 401, body: { detail: 'Incorrect email or password' } },
    });
    await expect(api('/api/public-config')).rejects.toMatchObject({ status: 401 });

    setToken('tok-keep');
    await expect(
      api('/api/auth/token', { method: 'POST', form: {}, anonymous: true, skipSessionRule: true }),
    ).rejects.toMatchObject({ message: 'Incorrect email or password' });
    expect(getToken()).toBe('tok-keep');
    expect(onInvalid).not.toHaveBeenCalled();
    window.removeEventListener(SESSION_INVALID_EVENT, onInvalid);
  });

  it('does not end a newer session when an old request is refused', async () => {
    setToken('tok-old');
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    mockApi({
      'GET /api/tasks/': async () => {
        await gate;
        return { status: 401, body: { detail: 'expired' } };
      },
    });
    const pending = api('/api/tasks/').catch((e) => e);
    setToken('tok-new');
    release();
    await pending;
    expect(getToken()).toBe('tok-new');
  });
});

describe('subscribeToken', () => {
  it('follows token changes made in this tab and in other tabs', () => {
    const onChange = vi.fn();
    const unsubscribe = subscribeToken(onChange);
    setToken('a');
    window.dispatchEvent(new StorageEvent('storage', { key: TOKEN_STORAGE_KEY, newValue: null }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else', newValue: 'x' }));
    expect(onChange).toHaveBeenCalledTimes(2);
    unsubscribe();
    setToken('b');
    expect(onChange).toHaveBeenCalledTimes(2);
  });
});
