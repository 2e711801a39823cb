/**
 * The one-time secret of a link the server e-mailed (`/page#token=…`). It travels in the fragment so
 * no server log sees it; the page reads it once and removes it from the address bar and history.
 */
export function takeLinkSecret(): string | null {
  if (typeof window === 'undefined') return null;
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return token;
}
