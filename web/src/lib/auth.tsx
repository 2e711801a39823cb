import type { TUser } from '@cc/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import { api, clearToken, getToken, isApiError, SESSION_ENDED_TOAST_ID, subscribeToken } from './api';
import { notify } from './toast';

/** Current-user data stays fresh for 15 minutes (spec section 9). */
export const CURRENT_USER_STALE_MS = 15 * 60 * 1000;
/** Profile fetch failures with these statuses end the session and are not retried. */
const SESSION_ENDING_STATUSES = [401, 403, 404];

export const currentUserKey = ['users', 'me'] as const;

export function isSessionEndingError(err: unknown): boolean {
  return isApiError(err) && SESSION_ENDING_STATUSES.includes(err.status);
}

/**
 * A 401/403/404 answer to the profile fetch ends the session at once (it is never retried). A 401 or
 * 403 has already been announced by the request layer ("Session Expired", lib/api.ts): one ended
 * session, one toast, so "Session Issue" is for the account that is gone (404).
 */
function endSessionAfterProfileFailure(err: unknown): void {
  if (isApiError(err) && err.status !== 404) return;
  notify.error(
    'Session Issue',
    'Your session has expired or your account is no longer active. Please log in again.',
    { id: SESSION_ENDED_TOAST_ID },
  );
  if (getToken()) clearToken();
}

/** Called once the profile fetch has finally failed, after its retries. */
function onCurrentUserError(err: unknown): void {
  if (isSessionEndingError(err)) return; // already handled in the query function
  notify.error('Profile Error', 'Could not load your profile. Please try again later.', {
    id: 'profile-error',
  });
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserKey,
    queryFn: async ({ signal }) => {
      try {
        return await api<TUser>('/api/users/me', { signal });
      } catch (err) {
        // Handled here rather than in the cache's onError: a 401/403 has already cleared the token,
        // which drops the cached query before the cache would report the error.
        if (isSessionEndingError(err)) endSessionAfterProfileFailure(err);
        throw err;
      }
    },
    staleTime: CURRENT_USER_STALE_MS,
    // 401/403/404 end the session at once; anything else is retried up to two times.
    retry: (failureCount, error) => !isSessionEndingError(error) && failureCount < 2,
    meta: { onError: onCurrentUserError },
  });
}

export interface AuthState {
  token: string | null;
  /** The signed-in user, once loaded (undefined while loading, on error or when signed out). */
  user: TUser | undefined;
  userStatus: 'pending' | 'error' | 'success';
  userError: unknown;
  refetchUser: () => void;
  /** Ends the session: clears the local token at once and revokes it on the server. */
  signOut: () => void;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(subscribeToken, getToken, () => null);
  const me = useQuery({ ...currentUserQueryOptions(), enabled: Boolean(token) });

  // Follow token changes, including those made in another tab: signing out drops every cached
  // record; a token replaced by another tab (maybe another user) refetches everything.
  const previous = useRef(token);
  useEffect(() => {
    const before = previous.current;
    previous.current = token;
    if (before === token) return;
    if (!token) queryClient.removeQueries();
    else if (before) void queryClient.resetQueries();
  }, [token, queryClient]);

  const signOut = useCallback(() => {
    const current = getToken();
    clearToken();
    if (current) {
      void api('/api/auth/logout', { method: 'POST', token: current, skipSessionRule: true }).catch(() => {});
    }
  }, []);

  const { refetch } = me;
  const refetchUser = useCallback(() => void refetch(), [refetch]);

  const value = useMemo<AuthState>(
    () => ({
      token,
      user: token ? me.data : undefined,
      userStatus: me.status,
      userError: me.error,
      refetchUser,
      signOut,
    }),
    [token, me.data, me.status, me.error, refetchUser, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
