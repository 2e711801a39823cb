import { isApiError } from '../../lib/api';

/** The message shown when a login attempt (password, single sign-on, or its link) fails. */
export function loginErrorMessage(err: unknown): string {
  if (isApiError(err)) {
    const data = err.data as { detail?: unknown } | undefined;
    return data && typeof data === 'object' && data.detail ? err.message : 'Login failed';
  }
  return 'An error occurred during login.';
}
