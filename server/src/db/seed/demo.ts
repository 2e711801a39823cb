import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../platform/context.ts';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../platform/data-dir.ts';
import { withTx } from '../index.ts';
import { seedDemoComms } from './demo-comms.ts';
import { seedDemoWorkspace } from './demo-workspace.ts';
import { countUsers, createAccount, findCredentials } from '../../modules/users/users.service.ts';
import { verifyPassword } from '../../platform/auth/passwords.ts';
import { addManagedMember } from '../../modules/organizations/memberships.service.ts';
import { createOrganization } from '../../modules/organizations/organizations.service.ts';

export const DEMO_ORGANIZATION = 'Northwind Ventures';
export const DEMO_USERS = [
  {
    email: 'admin@demo.example',
    first_name: 'Alex',
    last_name: 'Morgan',
    user_level: 'admin',
    role: 'Platform Administrator',
  },
  {
    email: 'ceo@demo.example',
    first_name: 'Olivia',
    last_name: 'Chen',
    user_level: 'ceo',
    role: 'Chief Executive Officer',
  },
  {
    email: 'maya@demo.example',
    first_name: 'Maya',
    last_name: 'Patel',
    user_level: 'user',
    role: 'Head of Operations',
  },
  {
    email: 'leo@demo.example',
    first_name: 'Leo',
    last_name: 'Garcia',
    user_level: 'user',
    role: 'Finance Lead',
  },
] as const;

export interface SeedResult {
  kind: 'demo' | 'admin' | 'none';
  credentials: { email: string; password: string; level: string }[];
}

const credentialsFile = (ctx: AppContext) => path.join(ctx.config.dataDir, 'demo-credentials.json');

/** Why a production server refuses to start on an empty database with no first account configured. */
export const NO_FIRST_ACCOUNT =
  'The database is empty and no first account is configured. In production, set ADMIN_EMAIL and ' +
  'ADMIN_PASSWORD to create the first admin (or DEMO_SEED=1 for the demo workspace), then start again.';

/**
 * On an empty database: ADMIN_EMAIL/ADMIN_PASSWORD create the first admin; otherwise, when DEMO_SEED is
 * on, a demo workspace (one organization, an admin, a ceo and two users). A generated demo password is
 * kept in the data directory (mode 600) so the sign-in details can be printed on every start. In
 * production, neither is an error (main.ts exits with {@link NO_FIRST_ACCOUNT}): a server nobody can
 * administer is never what the operator wanted.
 */
export async function seedIfEmpty(ctx: AppContext): Promise<SeedResult> {
  if ((await countUsers(ctx)) > 0) return { kind: 'none', credentials: [] };
  const { adminEmail, adminPassword } = ctx.config;
  if (adminEmail && adminPassword) {
    await createAccount(ctx, {
      email: adminEmail,
      password: adminPassword,
      user_level: 'admin',
      first_name: 'Admin',
      // The operator configured this address for the first administrator.
      email_verified: true,
    });
    return {
      kind: 'admin',
      credentials: [{ email: adminEmail.toLowerCase(), password: adminPassword, level: 'admin' }],
    };
  }
  if (!ctx.config.demoSeed) {
    if (ctx.config.env === 'production') throw new Error(NO_FIRST_ACCOUNT);
    return { kind: 'none', credentials: [] };
  }

  const password = ctx.config.demoPassword ?? randomBytes(9).toString('base64url');
  const ids: Record<string, string> = {};
  await withTx(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    for (const u of DEMO_USERS)
      ids[u.email] = await createAccount(tctx, { ...u, password, email_verified: true });
    const ceo = {
      id: ids['ceo@demo.example'],
      email: 'ceo@demo.example',
      first_name: 'Olivia',
      last_name: 'Chen',
      user_level: 'ceo',
      organization_id: null,
    };
    const org = await createOrganization(tctx, ceo, DEMO_ORGANIZATION, 'api'); // a seed, not a request
    // The demo's people were created through its organization: members without an invitation, and
    // (but the platform admin) accounts the organization manages.
    const member = (email: string, level: string, managed = true) =>
      addManagedMember(tctx, org.id, { id: ids[email], email }, level, { managed });
    await member('admin@demo.example', 'admin', false);
    await member('maya@demo.example', 'manager');
    await member('leo@demo.example', 'user');
    const person = (email: string, first: string, last: string, level: string) => ({
      id: ids[email],
      email,
      first_name: first,
      last_name: last,
      user_level: level,
      organization_id: org.id,
    });
    await seedDemoWorkspace(
      tctx,
      {
        ceo: { ...ceo, organization_id: org.id },
        maya: person('maya@demo.example', 'Maya', 'Patel', 'user'),
        leo: person('leo@demo.example', 'Leo', 'Garcia', 'user'),
      },
      org.id,
    );
    await seedDemoComms(
      tctx,
      {
        ceo: { ...ceo, organization_id: org.id },
        maya: person('maya@demo.example', 'Maya', 'Patel', 'user'),
      },
      org.id,
    );
  });
  if (!ctx.config.demoPassword && ctx.config.db.kind === 'sqlite') {
    ensurePrivateDir(ctx.config.dataDir);
    writeFileSync(credentialsFile(ctx), JSON.stringify({ password }), { mode: PRIVATE_FILE_MODE });
  }
  return {
    kind: 'demo',
    credentials: DEMO_USERS.map((u) => ({ email: u.email, password, level: u.user_level })),
  };
}

/** The demo sign-in details to print on a later start, while the demo CEO still uses that password. */
export async function knownDemoCredentials(ctx: AppContext): Promise<SeedResult['credentials']> {
  let password = ctx.config.demoPassword;
  if (!password && existsSync(credentialsFile(ctx))) {
    try {
      password = JSON.parse(readFileSync(credentialsFile(ctx), 'utf8')).password;
    } catch {
      return [];
    }
  }
  if (!password) return [];
  const ceo = await findCredentials(ctx, 'ceo@demo.example');
  if (!ceo || !(await verifyPassword(ceo.password_hash, password))) return [];
  return DEMO_USERS.map((u) => ({ email: u.email, password: password as string, level: u.user_level }));
}
