import { Allowlist } from './ip-policy.ts';
import { providerFetch } from './provider-fetch.ts';
import { checkUrl } from './safe-fetch.ts';

/**
 * {@link providerFetch} for an endpoint an administrator typed into Super Admin → Models: each request's
 * host is resolved and refused when it is a private, loopback, link-local or metadata address that
 * AI_HTTP_ALLOWLIST does not name, and a redirect is handed back as an error instead of followed.
 * (OPENAI_BASE_URL from the environment is the operator's own choice and keeps the plain fetch.)
 */
export function guardedProviderFetch(allowlist: readonly string[]): typeof fetch {
  const allow = new Allowlist(allowlist);
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    await checkUrl(url, allow);
    return providerFetch(input, { ...init, redirect: 'manual' });
  };
}
