import { Navigate } from 'react-router';
import { keepInvitationSecret } from '../invitation-secret';

/**
 * Where an e-mailed invitation link lands (/invitation#token=…): it keeps the secret and goes on to the
 * signed-in page that accepts it, through the sign-in when the visitor has no session yet.
 */
export default function InvitationLinkPage() {
  keepInvitationSecret();
  return <Navigate to="/app/invitation" replace />;
}
