/**
 * The list floor (issue 48 §1): the first page of tasks, notes, goals and contacts as the product
 * serves them to the bench (`?limit=50`, default filters and sort), read with the plain SQL a careful
 * developer writes for that page: one indexed query per visibility branch, each in its index's order
 * and cut at the page size, then the page's rows with their joins. No stored list entry, no cache, no
 * worker thread, no prepared-statement shapes. The JSON comes from the product's own presenters and
 * access rules (pure functions), so the floor differs from the product only in its data path; the
 * bench checks that both bodies are byte-identical for every rotation user (floors.test.ts).
 */
import {
  COMPLETED_GOAL_STATUSES,
  MAX_INTERACTIONS_PER_CONTACT,
  COMPLETED_TASK_STATUS,
  KPI_TREND_POINTS,
  MAX_KPIS_PER_GOAL,
} from '@cc/contract';
import Fastify from 'fastify';
import type { ContactInteractionsTable, GoalKpisTable } from '../../server/src/db/types.ts';
import { contactRights } from '../../server/src/modules/contacts/contacts.policy.ts';
import { parseList, presentContact } from '../../server/src/modules/contacts/contacts.presenter.ts';
import type { ContactRow, ShareRow } from '../../server/src/modules/contacts/contacts.repository.ts';
import { goalRights } from '../../server/src/modules/goals/goals.policy.ts';
import { type KpiTrend, presentGoal } from '../../server/src/modules/goals/goals.presenter.ts';
import type { GoalRow } from '../../server/src/modules/goals/goals.repository.ts';
import { presentJournal } from '../../server/src/modules/journals/journals.presenter.ts';
import { taskRights } from '../../server/src/modules/tasks/tasks.policy.ts';
import { presentTask } from '../../server/src/modules/tasks/tasks.presenter.ts';
import type { TaskRow } from '../../server/src/modules/tasks/tasks.repository.ts';
import { bearerUser, type FloorDb, type FloorUser, floorEnv, openFloorDb } from './floor-db.ts';

const PAGE = 50;
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const viewerOf = (u: FloorUser) => ({
  id: u.id,
  userLevel: u.user_level,
  levels: u.levels,
  orgIds: [...u.levels.keys()],
});

/** Tasks: created by me, assigned to me, shared with each of my organizations; Done hidden. */
async function tasksPage(db: FloorDb, u: FloorUser): Promise<string> {
  const orgs = [...u.levels.keys()];
  const own = (column: string) =>
    `select * from (select id, due_date is null as k0, due_date as k1, created_at as k2 from tasks
       where ${column} = ? and status <> ? order by k0, k1, k2 desc, id limit ${PAGE}) b`;
  const shared = `select * from (select task_id as id, task_due_date is null as k0, task_due_date as k1,
       task_created_at as k2 from task_shares where organization_id = ? and task_status <> ?
       order by k0, k1, k2 desc, id limit ${PAGE}) b`;
  const branches = [own('created_by'), own('assigned_to_user_id'), ...orgs.map(() => shared)];
  const params = [u.id, COMPLETED_TASK_STATUS, u.id, COMPLETED_TASK_STATUS];
  for (const org of orgs) params.push(org, COMPLETED_TASK_STATUS);
  const agg = db.engine === 'postgres' ? 'string_agg' : 'group_concat';
  const rows = await db.all<TaskRow & { shared: string | null }>(
    `select t.id, t.title, t.description, t.priority, t.status, t.due_date, t.notes, t.assigned_to_user_id,
       t.created_by, t.created_at, t.updated_at, t.goal_id,
       c.email as creator_email, c.first_name as creator_first_name, c.last_name as creator_last_name,
       a.email as assignee_email, a.first_name as assignee_first_name, a.last_name as assignee_last_name,
       (select ${agg}(s.organization_id, ',') from task_shares s where s.task_id = t.id) as shared
     from (select distinct * from (${branches.join(' union all ')}) u
           order by k0, k1, k2 desc, id limit ${PAGE}) page
     join tasks t on t.id = page.id
     join users c on c.id = t.created_by
     left join users a on a.id = t.assigned_to_user_id
     order by page.k0, page.k1, page.k2 desc, page.id`,
    params,
  );
  const viewer = viewerOf(u);
  return JSON.stringify(
    rows.map(({ shared, ...row }) => {
      const ids = shared ? shared.split(',').sort() : [];
      return presentTask(row, ids, taskRights(row, ids, viewer));
    }),
  );
}

/** Notes: my own, newest entry date first (journals_user_date_idx). */
async function notesPage(db: FloorDb, u: FloorUser): Promise<string> {
  const rows = await db.all<Parameters<typeof presentJournal>[0]>(
    `select * from journals where user_id = ?
     order by entry_date desc, created_at desc, id desc limit ${PAGE}`,
    [u.id],
  );
  return JSON.stringify(rows.map(presentJournal));
}

/** Goals: mine and those filed under my organizations; completed ones hidden; by due date. */
async function goalsPage(db: FloorDb, u: FloorUser): Promise<string> {
  const orgs = [...u.levels.keys()];
  const hidden = [...COMPLETED_GOAL_STATUSES];
  const branch = (column: string) =>
    `select * from (select id, due_date as k1, created_at as k2 from strategic_goals
       where ${column} = ? and status not in (${marks(hidden.length)})
       order by due_date, created_at desc, id limit ${PAGE}) b`;
  const branches = [branch('user_id'), ...orgs.map(() => branch('organization_id'))];
  const params = [u.id, ...hidden, ...orgs.flatMap((o) => [o, ...hidden])];
  const rows = await db.all<GoalRow>(
    `select g.id, g.user_id, g.organization_id, g.title, g.description, g.start_date, g.due_date, g.status,
       g.created_at, g.updated_at, o.name as organization_name
     from (select distinct * from (${branches.join(' union all ')}) u
           order by k1, k2 desc, id limit ${PAGE}) page
     join strategic_goals g on g.id = page.id
     left join organizations o on o.id = g.organization_id
     order by page.k1, page.k2 desc, page.id`,
    params,
  );
  const ids = rows.map((r) => r.id);
  const kpis = ids.length
    ? await db.all<GoalKpisTable>(
        `select * from goal_kpis where goal_id in (${marks(ids.length)}) order by goal_id, position limit ?`,
        [...ids, ids.length * MAX_KPIS_PER_GOAL],
      )
    : [];
  const trends = new Map<string, KpiTrend>();
  if (kpis.length) {
    const checkins = await db.all<{ kpi_id: string; date: string; value: number | string }>(
      `select kpi_id, date, value from (select kpi_id, date, value,
         row_number() over (partition by kpi_id order by date desc) as rn
         from kpi_checkins where kpi_id in (${marks(kpis.length)})) r
       where rn <= ? order by kpi_id, date`,
      [...kpis.map((k) => k.id), KPI_TREND_POINTS],
    );
    for (const c of checkins) {
      const list = trends.get(c.kpi_id) ?? [];
      list.push({ date: c.date, value: Number(c.value) });
      trends.set(c.kpi_id, list);
    }
  }
  const history = { trends, today: new Date().toISOString().slice(0, 10) };
  const viewer = viewerOf(u);
  return JSON.stringify(
    rows.map((row) =>
      presentGoal(
        row,
        kpis.filter((k) => k.goal_id === row.id),
        goalRights(row, viewer),
        history,
      ),
    ),
  );
}

/** Contacts: mine and those shared with my organizations, in directory order (lower(name), id). */
async function contactsPage(db: FloorDb, u: FloorUser): Promise<string> {
  const orgs = [...u.levels.keys()];
  const own = `select * from (select id, lower(name) as k from contacts where user_id = ?
       order by k, id limit ${PAGE}) b`;
  const shared = `select * from (select contact_id as id, contact_name_key as k from contact_shares
       where organization_id = ? order by k, id limit ${PAGE}) b`;
  const rows = await db.all<ContactRow>(
    `select c.id, c.user_id, c.organization_id, c.name, c.role, c.avatar_initial, c.emails, c.phones, c.notes,
       c.created_at, c.updated_at, o.email as owner_email, o.first_name as owner_first_name,
       o.last_name as owner_last_name
     from (select distinct * from (${[own, ...orgs.map(() => shared)].join(' union all ')}) u
           order by k, id limit ${PAGE}) page
     join contacts c on c.id = page.id
     join users o on o.id = c.user_id
     order by page.k, page.id`,
    [u.id, ...orgs],
  );
  const ids = rows.map((r) => r.id);
  const shares = new Map<string, ShareRow[]>(ids.map((id) => [id, []]));
  const interactions = new Map<string, ContactInteractionsTable[]>(ids.map((id) => [id, []]));
  const emails = rows.map((r) => parseList(r.emails));
  const allEmails = [...new Set(emails.flat())];
  if (ids.length) {
    const [shareRows, interactionRows] = await Promise.all([
      db.all<ShareRow>(
        `select s.contact_id, s.organization_id, o.name from contact_shares s
         join organizations o on o.id = s.organization_id where s.contact_id in (${marks(ids.length)})
         order by s.contact_id, o.name, s.organization_id`,
        ids,
      ),
      db.all<ContactInteractionsTable>(
        `select * from contact_interactions where contact_id in (${marks(ids.length)})
         order by contact_id, date desc, created_at desc, id limit ?`,
        [...ids, ids.length * MAX_INTERACTIONS_PER_CONTACT],
      ),
    ]);
    for (const s of shareRows) shares.get(s.contact_id)?.push(s);
    for (const i of interactionRows) interactions.get(i.contact_id)?.push(i);
  }
  const users = allEmails.length
    ? await db.all<{ id: string; email: string }>(
        `select id, email from users where email in (${marks(allEmails.length)})`,
        allEmails,
      )
    : [];
  const userByEmail = new Map(users.map((x) => [x.email, x.id]));
  const viewer = viewerOf(u);
  return JSON.stringify(
    rows.map((row, i) => {
      const s = shares.get(row.id) ?? [];
      const rights = contactRights(
        row,
        s.map((x) => x.organization_id),
        viewer,
      );
      const linked = (emails[i] as string[]).find((e) => userByEmail.has(e));
      return presentContact(row, {
        shares: s,
        interactions: interactions.get(row.id) ?? [],
        linkedUserId: linked === undefined ? null : (userByEmail.get(linked) as string),
        canEdit: rights.canEdit,
        canDelete: rights.canDelete,
      });
    }),
  );
}

const PAGES: Record<string, (db: FloorDb, u: FloorUser) => Promise<string>> = {
  '/api/tasks/': tasksPage,
  '/api/journals/': notesPage,
  '/api/strategic-goals/': goalsPage,
  '/api/contacts/': contactsPage,
};

async function main() {
  const { port, databaseUrl, secret } = floorEnv();
  const db = openFloorDb(databaseUrl);
  const app = Fastify();
  for (const [url, page] of Object.entries(PAGES)) {
    app.get(url, async (req, reply) => {
      const user = await bearerUser(db, secret, req, reply);
      if (!user) return reply;
      return reply.type('application/json; charset=utf-8').send(await page(db, user));
    });
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port, host: '127.0.0.1' });
}

void main();
