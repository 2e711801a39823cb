/**
 * The write floor (issue 48 §1): `POST /api/tasks/` for the bench's task body, the same row inserted
 * with the same durability (SQLite WAL with synchronous=FULL, one transaction per write; PostgreSQL a
 * plain INSERT in autocommit), answered 201 with the product's JSON (its presenter and rules). No
 * stored list entry is rendered: that is the product's layer this floor leaves out. The body goes
 * through the contract's response schema as the product's does (its key order is the schema's).
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_TASK_PRIORITY, DEFAULT_TASK_STATUS, ZTask } from '@cc/contract';
import Fastify from 'fastify';
import { taskRights } from '../../server/src/modules/tasks/tasks.policy.ts';
import { presentTask } from '../../server/src/modules/tasks/tasks.presenter.ts';
import { bearerUser, floorEnv, openFloorDb } from './floor-db.ts';

interface TaskBody {
  title?: unknown;
  description?: unknown;
  priority?: unknown;
  status?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

async function main() {
  const { port, databaseUrl, secret } = floorEnv();
  const db = openFloorDb(databaseUrl);
  const app = Fastify();
  app.post('/api/tasks/', async (req, reply) => {
    const user = await bearerUser(db, secret, req, reply);
    if (!user) return reply;
    const body = (req.body ?? {}) as TaskBody;
    const title = text(body.title);
    if (!title) return reply.code(422).send({ detail: 'title is required' });
    const now = new Date().toISOString();
    const row = {
      id: randomUUID(),
      title,
      description: text(body.description),
      priority: text(body.priority) ?? DEFAULT_TASK_PRIORITY,
      status: text(body.status) ?? DEFAULT_TASK_STATUS,
      due_date: null,
      notes: null,
      assigned_to_user_id: null,
      goal_id: null,
      created_by: user.id,
      created_at: now,
      updated_at: now,
    };
    await db.run(
      `insert into tasks (id, title, description, priority, status, due_date, notes, assigned_to_user_id,
         goal_id, created_by, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      Object.values(row),
    );
    const created = {
      ...row,
      creator_email: user.email,
      creator_first_name: user.first_name,
      creator_last_name: user.last_name,
      assignee_email: null,
      assignee_first_name: null,
      assignee_last_name: null,
    };
    const viewer = { ...user, userLevel: user.user_level, orgIds: [...user.levels.keys()] };
    const json = ZTask.parse(presentTask(created, [], taskRights(created, [], viewer)));
    return reply.code(201).type('application/json; charset=utf-8').send(JSON.stringify(json));
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port, host: '127.0.0.1' });
}

void main();
