import type { TTokenResponse, TUser } from '@cc/contract';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, setToken } from '../../lib/api';
import { currentUserKey } from '../../lib/auth';

export interface SignInInput {
  email: string;
  password: string;
  rememberMe: boolean;
}

export interface RegisterInput {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
}

/**
 * Exchanges credentials for a token, loads the user with it, and only then stores the token, so a
 * failed login leaves the visitor signed out and a successful one knows at once where to go.
 */
export async function signIn(queryClient: QueryClient, input: SignInInput): Promise<TUser> {
  const token = await api<TTokenResponse>('/api/auth/token', {
    method: 'POST',
    form: { username: input.email.trim(), password: input.password, remember_me: String(input.rememberMe) },
    anonymous: true,
    skipSessionRule: true,
  });
  return completeSignIn(queryClient, token);
}

/** Loads the user with a new token, and only then keeps it (password and single sign-on alike). */
async function completeSignIn(queryClient: QueryClient, token: TTokenResponse): Promise<TUser> {
  const me = await api<TUser>('/api/users/me', { token: token.access_token, skipSessionRule: true });
  queryClient.removeQueries();
  queryClient.setQueryData(currentUserKey, me);
  setToken(token.access_token);
  return me;
}

/** The one-time code the single sign-on callback put in the login page's address becomes a session. */
export async function exchangeSsoCode(queryClient: QueryClient, code: string): Promise<TUser> {
  const token = await api<TTokenResponse>('/api/auth/oidc/exchange', {
    method: 'POST',
    json: { code },
    anonymous: true,
    skipSessionRule: true,
  });
  return completeSignIn(queryClient, token);
}

export function useSsoExchange() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (code: string) => exchangeSsoCode(queryClient, code) });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (input: SignInInput) => signIn(queryClient, input) });
}

export function useRegister() {
  return useMutation({
    mutationFn: (input: RegisterInput) =>
      api<TUser>('/api/users/register', {
        method: 'POST',
        json: { ...input, email: input.email.trim() },
        anonymous: true,
        skipSessionRule: true,
      }),
  });
}

/** The existing account's password confirms linking single sign-on to it (once), then signs in. */
export async function linkSso(queryClient: QueryClient, code: string, password: string): Promise<TUser> {
  const token = await api<TTokenResponse>('/api/auth/oidc/link', {
    method: 'POST',
    json: { code, password },
    anonymous: true,
    skipSessionRule: true,
  });
  return completeSignIn(queryClient, token);
}

export function useSsoLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { code: string; password: string }) =>
      linkSso(queryClient, input.code, input.password),
  });
}

/** What a link e-mailed to an address confirmed. */
export interface EmailConfirmation {
  purpose: 'verify' | 'change';
  email: string;
}

export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      api<EmailConfirmation>('/api/auth/email/confirm', {
        method: 'POST',
        json: { token },
        anonymous: true,
        skipSessionRule: true,
      }),
    // A signed-in visitor's profile now says the address is verified.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKey }),
  });
}
