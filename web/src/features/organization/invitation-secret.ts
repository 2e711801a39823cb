import { takeLinkSecret } from '../../lib/link-secret';

// An invitation link is opened before the person may have signed in (or signed up): its secret waits
// in this tab's session storage while the sign-in happens, and is used once.
const KEY = 'cc.invitationSecret';

/** Keeps the secret of the invitation link this page was opened with, if any. */
export function keepInvitationSecret(): void {
  const secret = takeLinkSecret();
  if (secret) sessionStorage.setItem(KEY, secret);
}

/** The kept secret, removed as it is read (single use). */
export function takeInvitationSecret(): string | null {
  const secret = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return secret;
}
