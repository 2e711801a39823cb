import { measure } from '../http.ts';
import type { ScenarioGroup } from './types.ts';

const CEO = 'ceo@demo.example';

/** Foundation API routes: sign-in, the current user, the caller's organizations. */
export const authUsersOrgs: ScenarioGroup = {
  name: 'auth-users-orgs',
  description: 'POST /api/auth/token, GET /api/users/me, GET /api/organizations (as the demo ceo)',
  async run(ctx) {
    const { baseURL, settings, control } = ctx;
    const password = process.env.DEMO_PASSWORD ?? 'demo-password-1';
    const auth = { Authorization: `Bearer ${await ctx.token(CEO)}` };
    const http = [];
    http.push(
      await measure(
        baseURL,
        this.name,
        {
          name: 'sign-in',
          method: 'POST',
          path: '/api/auth/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: CEO, password }).toString(),
          connections: settings.authConnections,
          note: `argon2id password hashing is slow by design and CPU-bound: measured with -c ${settings.authConnections}, not ${settings.connections}`,
        },
        settings,
        control,
      ),
    );
    http.push(
      await measure(
        baseURL,
        this.name,
        { name: 'current user', method: 'GET', path: '/api/users/me', headers: auth },
        settings,
        control,
      ),
    );
    http.push(
      await measure(
        baseURL,
        this.name,
        { name: 'organizations', method: 'GET', path: '/api/organizations', headers: auth },
        settings,
        control,
      ),
    );
    return { http };
  },
};
