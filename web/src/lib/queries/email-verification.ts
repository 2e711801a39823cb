import { useMutation } from '@tanstack/react-query';
import { api } from '../api';

/** Sends the link that verifies the signed-in account's e-mail again (waitlist and profile pages). */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api<{ email_sent: boolean }>('/api/users/me/email-verification', { method: 'POST' }),
  });
}
