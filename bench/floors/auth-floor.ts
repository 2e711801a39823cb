/**
 * The auth floor (issue 48 §1): `GET /api/users/me` with the one-lookup bearer check and one select
 * of the user with their profile and organization name, presented by the product's presenter. The
 * product's authenticated trivial route is held to ≥ 0.6× this floor's req/s. The body goes through
 * the contract's response schema as the product's does (its key order is the schema's).
 */
import { ZUser } from '@cc/contract';
import Fastify from 'fastify';
import { presentUser } from '../../server/src/modules/users/users.presenter.ts';
import type { UserRow } from '../../server/src/modules/users/users.repository.ts';
import { bearerUser, floorEnv, openFloorDb } from './floor-db.ts';

async function main() {
  const { port, databaseUrl, secret } = floorEnv();
  const db = openFloorDb(databaseUrl);
  const app = Fastify();
  app.get('/api/users/me', async (req, reply) => {
    const user = await bearerUser(db, secret, req, reply);
    if (!user) return reply;
    const [row] = await db.all<UserRow>(
      `select u.id, u.email, u.first_name, u.last_name, u.user_level, u.organization_id, u.role, u.created_at,
         u.updated_at, u.brief_schedule, u.email_verified_at, o.name as organization_name,
         p.name as profile_name, p.role as profile_role, p.objectives, p.behavior_notes, p.knowledge_summary,
         p.custom_prompts, p.created_at as profile_created_at, p.updated_at as profile_updated_at
       from users u join profiles p on p.user_id = u.id left join organizations o on o.id = u.organization_id
       where u.id = ?`,
      [user.id],
    );
    if (!row) return reply.code(404).send({ detail: 'User not found' });
    const body = presentUser(row, { withCustomPrompts: user.user_level === 'admin' });
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(ZUser.parse(body)));
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port, host: '127.0.0.1' });
}

void main();
