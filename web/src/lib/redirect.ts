export const DEFAULT_APP_PATH = '/app/ceodashboard';

/**
 * The post-login target from a `redirect` query parameter, only when it is a relative path inside the
 * signed-in area (`/app`, `/app/...`, `/app?...`). Anything else (absolute URLs, `//host`, back-slashes,
 * other sections of the site) is refused so the login page cannot be used as an open redirect.
 */
export function safeAppRedirect(target: string | null | undefined): string | null {
  if (!target || target.length > 2000) return null;
  if (!target.startsWith('/app')) return null;
  const next = target.charAt(4);
  if (next !== '' && next !== '/' && next !== '?' && next !== '#') return null;
  // Control characters, back-slashes and protocol-relative segments have no place in an app path.
  for (let i = 0; i < target.length; i++) if (target.charCodeAt(i) < 0x20) return null;
  if (target.includes('\\') || target.includes('//')) return null;
  try {
    const url = new URL(target, 'http://local.invalid');
    if (url.origin !== 'http://local.invalid' || !url.pathname.startsWith('/app')) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

/** `/login?redirect=<path>` for an anonymous visitor of a signed-in page. */
export function loginPathFor(path: string): string {
  return `/login?redirect=${encodeURIComponent(path)}`;
}
