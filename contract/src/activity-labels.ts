/**
 * What an activity entry's `action` means, in words, for the screens (the API keeps the stable code:
 * filters, exports and other clients rely on it).
 */
const LABELS: Record<string, string> = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Failed sign-in',
  'auth.sign_out': 'Signed out',
  'auth.lockout': 'Account locked after failed sign-ins',
  'user.created': 'Account created',
  'user.deleted': 'Account deleted',
  'user.level_changed': 'Access level changed',
  'user.password_changed': 'Password changed',
  'task.created': 'Task created',
  'note.created': 'Note created',
  'memory.created': 'Memory saved',
  'advice.created': 'Advice generated',
  'comms.message_sent': 'Message sent',
  'external.call': 'Call to an outside service',
  'organization.created': 'Organization created',
  'organization.deleted': 'Organization deleted',
  'membership.level_changed': 'Member level changed',
  'membership.removed': 'Member removed',
  'invitation.created': 'Invitation sent',
  'invitation.accepted': 'Invitation accepted',
  'invitation.declined': 'Invitation declined',
  'activity.undone': 'Change undone',
  'connection.created': 'Connection added',
  'connection.deleted': 'Connection removed with what it imported',
};

const words = (s: string) => s.replace(/[_-]+/g, ' ').trim();
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `auth.sign_in` → "Signed in"; an action without a label reads as words ("mcp.create_note" → "Via MCP: create note"). */
export function activityActionLabel(action: string): string {
  const known = LABELS[action];
  if (known) return known;
  const [domain, ...rest] = action.split('.');
  if (domain === 'mcp' && rest.length) return `Via MCP: ${words(rest.join(' '))}`;
  return capital(words([domain, ...rest].join(' ')));
}

/** Sign-ins are folded together on the activity screens: they are many and alike. */
export const FOLDED_ACTIVITY_ACTIONS = new Set(['auth.sign_in']);
