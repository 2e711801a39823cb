import { randomUUID } from 'node:crypto';
import { contactListJson } from '../../../server/src/modules/contacts/contacts.presenter.ts';
import { taskListJson } from '../../../server/src/modules/tasks/tasks.presenter.ts';
import { openSeedDb, type SeedDb } from '../seed-db.ts';

/**
 * The workspace-lists data set (issue figures), seeded straight into a bench server's database on
 * either engine.
 */

/** Seed sizes (ARCHITECTURE.md section 8: 10k users, 100k tasks, 20k contacts, 50k notes). */
export const SIZES = {
  users: 10_000,
  organizations: 50,
  tasks: 100_000,
  contacts: 20_000,
  notes: 50_000,
  goals: 5_000,
  /** Approvals inbox items (issue 19 §2), most of them settled; the measured user has 150 waiting. */
  inbox_items: 20_000,
};

/** A word in about one task title in eight: the `search` filter finds a realistic share of the rows. */
export const SEARCH_WORD = 'budget';

/** How many distinct users the realistic-miss runs rotate through (issue #18). */
export const ROTATION_USERS = 200;

const TASK_STATUSES = ['To Do', 'Pending', 'In Progress', 'Done', 'Review', 'Cancelled', 'Bottleneck'];
const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'];
const GOAL_STATUSES = ['new', 'in_progress', 'done', 'failed'];
const VERBS = ['Review', 'Prepare', 'Draft', 'Approve', 'Finalize', 'Plan', 'Update', 'Present'];
const OBJECTS = [
  'budget',
  'hiring plan',
  'board deck',
  'pricing',
  'vendor contract',
  'roadmap',
  'quarterly report',
  'launch checklist',
];
const FIRST = ['Ava', 'Ben', 'Chloe', 'Dan', 'Elena', 'Femi', 'Grace', 'Hugo', 'Ines', 'Jon', 'Kira', 'Luis'];
const LAST = ['Adams', 'Brown', 'Costa', 'Diaz', 'Evans', 'Fischer', 'Gupta', 'Hayes', 'Ito', 'Jensen'];
const ROLES = ['Analyst', 'Director', 'Engineer', 'Investor', 'Partner', 'Advisor', 'Account Manager'];
const KPI_UNITS = ['%', 'USD', 'customers', 'NPS', 'days'];
const LOREM =
  'Met with the team to go over the numbers and the open questions. Follow up on the action items, ' +
  'check the assumptions with finance and share a short summary with everyone before Friday.';

/** mulberry32: a small seeded PRNG, so every run seeds the same shape. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick };
}

const DAY = 86_400_000;

export interface Seeded {
  counts: Record<string, number>;
  seconds: number;
  /** The measured user: a member of the organization with the most shared tasks. */
  heavy: { email: string; orgs: number; visibleTasks: number; visibleContacts: number; notes: number };
  visibleGoals: number;
  busiestOrgShares: number;
  /** The users the realistic-miss runs rotate through (ROTATION_USERS of them). */
  rotation: string[];
}

/**
 * Seeds the running server's database (SQLite in WAL mode or PostgreSQL: the server keeps serving)
 * table by table, each in one transaction: 50 organizations, 1,000 users (a few ceos) each a member of
 * 1-2 organizations (organization sizes skewed, so some are busy), 100k tasks (about half shared with
 * an organization of the creator and assigned to a colleague there), 20k contacts (a quarter shared),
 * 50k notes, 5k goals with 1-3 KPIs each. Then ANALYZE; on SQLite that also makes the server's
 * connection reload the schema and the statistics (the first ANALYZE creates sqlite_stat1, a schema
 * change). Every seeded user's password is the demo password.
 */
export async function seedWorkspace(databaseUrl: string, sizes: Sizes = SIZES): Promise<Seeded> {
  const db = await openSeedDb(databaseUrl);
  try {
    return await seedInto(db, sizes);
  } finally {
    await db.close();
  }
}

export type Sizes = typeof SIZES;

/** How many of `total` records the i-th of `users` users gets: every count spread evenly, none lost. */
const shareOf = (total: number, users: number, i: number) =>
  Math.floor(((i + 1) * total) / users) - Math.floor((i * total) / users);

/**
 * Every `users / ROTATION_USERS`-th user; one in ten of them a ceo (the ceos are every 50th user),
 * the others from the middle of each step: a spread of organizations, workloads and levels.
 */
export function rotationIndexes(users: number): number[] {
  const step = Math.max(1, Math.floor(users / ROTATION_USERS));
  return Array.from({ length: Math.min(ROTATION_USERS, users) }, (_, k) =>
    k % 10 === 0 ? k * step : k * step + Math.floor(step / 2),
  );
}

async function seedInto(db: SeedDb, sizes: Sizes): Promise<Seeded> {
  const started = performance.now();
  const r = prng(20_240_601);
  const hash = (
    await db.get<{ password_hash: string }>(
      "select password_hash from users where email = 'ceo@demo.example'",
    )
  )?.password_hash;
  if (!hash) throw new Error('the demo ceo is missing: the server did not seed the demo workspace');

  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const day = (ms: number) => iso(ms).slice(0, 10);
  const past = (days: number) => now - r.int(days * DAY);

  // Rows are gathered per table and inserted in this order (foreign keys), each table in one
  // transaction (seed-db.ts).
  const tables = {
    organizations: ['id', 'name', 'created_by', 'created_at', 'updated_at'],
    users: [
      'id',
      'email',
      'password_hash',
      'first_name',
      'last_name',
      'user_level',
      'organization_id',
      'role',
      'created_at',
      'updated_at',
    ],
    profiles: ['user_id', 'name', 'role', 'objectives', 'custom_prompts', 'created_at', 'updated_at'],
    organization_members: [
      'id',
      'organization_id',
      'user_id',
      'email',
      'org_access_level',
      'is_invite',
      'created_at',
    ],
    tasks: [
      'id',
      'title',
      'description',
      'priority',
      'status',
      'due_date',
      'notes',
      'assigned_to_user_id',
      'created_by',
      'created_at',
      'updated_at',
    ],
    // Share rows carry copies of the task's sort and filter columns (0003_workspace_perf).
    task_shares: [
      'task_id',
      'organization_id',
      'created_at',
      'task_due_date',
      'task_created_at',
      'task_status',
      'task_priority',
    ],
    contacts: [
      'id',
      'user_id',
      'organization_id',
      'name',
      'role',
      'avatar_initial',
      'emails',
      'phones',
      'notes',
      'created_at',
      'updated_at',
    ],
    contact_shares: ['contact_id', 'organization_id', 'created_at', 'contact_name_key'],
    journals: ['id', 'user_id', 'content', 'entry_date', 'created_at', 'updated_at'],
    strategic_goals: [
      'id',
      'user_id',
      'organization_id',
      'title',
      'description',
      'due_date',
      'status',
      'created_at',
      'updated_at',
    ],
    goal_kpis: ['id', 'goal_id', 'position', 'name', 'current_value', 'target_value', 'unit'],
  } as const;
  type Table = keyof typeof tables;
  const rows = Object.fromEntries(Object.keys(tables).map((t) => [t, [] as unknown[][]])) as Record<
    Table,
    unknown[][]
  >;
  const counts = Object.fromEntries(Object.keys(tables).map((t) => [t, 0])) as Record<string, number>;
  const add = (table: Table, ...values: unknown[]) => {
    rows[table].push(values);
    counts[table]++;
  };

  const orgIds = Array.from({ length: sizes.organizations }, () => randomUUID());
  // Skewed organization sizes: organization k is picked with weight 1/(k+1).
  const weights = orgIds.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const pickOrg = () => {
    let x = r.next() * total;
    for (let k = 0; k < weights.length; k++) {
      x -= weights[k];
      if (x <= 0) return k;
    }
    return weights.length - 1;
  };
  const users = Array.from({ length: sizes.users }, (_, i) => {
    const first = pickOrg();
    let second = r.next() < 0.5 ? pickOrg() : -1;
    if (second === first) second = -1;
    return {
      id: randomUUID(),
      email: `bench-user-${String(i + 1).padStart(4, '0')}@bench.example`,
      first: r.pick(FIRST),
      last: r.pick(LAST),
      level: i % 50 === 0 ? 'ceo' : 'user',
      orgs: second < 0 ? [first] : [first, second],
    };
  });
  const membersOf: string[][] = orgIds.map(() => []);
  for (const u of users) for (const k of u.orgs) membersOf[k].push(u.id);
  const orgNames = new Map<string, string>();
  orgIds.forEach((id, k) => {
    const created = iso(now - 400 * DAY + k * DAY);
    orgNames.set(id, `Bench Org ${String(k + 1).padStart(2, '0')}`);
    add('organizations', id, orgNames.get(id), membersOf[k][0] ?? null, created, created);
  });
  for (const u of users) {
    const created = iso(now - 380 * DAY + r.int(10 * DAY));
    const role = r.pick(ROLES);
    add('users', u.id, u.email, hash, u.first, u.last, u.level, orgIds[u.orgs[0]], role, created, created);
    add('profiles', u.id, `${u.first} ${u.last}`, role, '[]', '{}', created, created);
    for (const k of u.orgs) {
      const level = membersOf[k][0] === u.id ? 'admin' : r.next() < 0.1 ? 'manager' : 'user';
      add('organization_members', randomUUID(), orgIds[k], u.id, u.email, level, 0, created);
    }
  }
  const byId = new Map<string, (typeof users)[number]>(users.map((u) => [u.id, u]));
  const listEntries: Record<'tasks' | 'contacts', [string, string][]> = { tasks: [], contacts: [] };
  for (let i = 0; i < sizes.tasks; i++) {
    const u = r.pick(users);
    const created = past(365);
    const id = randomUUID();
    const shareOrg = r.next() < 0.5 ? r.pick(u.orgs) : -1;
    const x = r.next();
    const assignee =
      shareOrg >= 0 && x < 0.8 ? r.pick(membersOf[shareOrg]) : x < 0.9 ? u.id : x < 0.95 ? null : u.id;
    const title = `${r.pick(VERBS)} ${r.pick(OBJECTS)} #${i + 1}`;
    const task = [
      id,
      title,
      r.next() < 0.7 ? `${title}: ${LOREM.slice(0, 40 + r.int(120))}` : null,
      r.pick(PRIORITIES),
      r.pick(TASK_STATUSES),
      r.next() < 0.85 ? day(created + r.int(120) * DAY) : null,
      r.next() < 0.3 ? LOREM.slice(0, 60) : null,
      assignee,
      u.id,
      iso(created),
      iso(created + r.int(30) * DAY),
    ];
    // The task's list entry, rendered as the server renders it when it writes a task (0026).
    const assigned = assignee ? byId.get(assignee) : undefined;
    const listJson = taskListJson(
      {
        id,
        title,
        description: task[2],
        priority: task[3] as string,
        status: task[4] as string,
        due_date: task[5],
        notes: task[6],
        assigned_to_user_id: assignee,
        created_by: u.id,
        created_at: task[9] as string,
        updated_at: task[10] as string,
        goal_id: null,
        creator_email: u.email,
        creator_first_name: u.first,
        creator_last_name: u.last,
        assignee_email: assigned?.email ?? null,
        assignee_first_name: assigned?.first ?? null,
        assignee_last_name: assigned?.last ?? null,
      },
      shareOrg >= 0 ? [orgIds[shareOrg]] : [],
    );
    add('tasks', ...task);
    listEntries.tasks.push([id, listJson]);
    if (shareOrg >= 0) {
      // task: [id, title, description, priority, status, due_date, notes, assignee, creator, created_at, ...]
      add('task_shares', id, orgIds[shareOrg], iso(created), task[5], task[9], task[4], task[3]);
    }
  }
  for (const [i, u] of users.entries()) {
    for (let j = 0; j < shareOf(sizes.contacts, sizes.users, i); j++) {
      const id = randomUUID();
      const created = past(365);
      const name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
      // A contact filed under an organization is shared with it (as the service does on create).
      const org = r.next() < 0.25 ? orgIds[r.pick(u.orgs)] : null;
      const email = `${name.toLowerCase().replace(' ', '.')}.${j}@partner${r.int(200)}.example`;
      const contact = {
        id,
        user_id: u.id,
        organization_id: org,
        name,
        role: r.pick(ROLES),
        avatar_initial: name.charAt(0),
        emails: JSON.stringify([email]),
        phones: JSON.stringify(
          r.next() < 0.6 ? [`+1 415 555 ${String(r.int(10_000)).padStart(4, '0')}`] : [],
        ),
        notes: r.next() < 0.4 ? LOREM.slice(0, 80) : null,
        created_at: iso(created),
        updated_at: iso(created),
        owner_email: u.email,
        owner_first_name: u.first,
        owner_last_name: u.last,
      };
      // The contact's list entry, as the server renders it when it writes a contact (0027).
      const shares = org ? [{ contact_id: id, organization_id: org, name: orgNames.get(org) as string }] : [];
      const { owner_email: _e, owner_first_name: _f, owner_last_name: _l, ...columns } = contact;
      add('contacts', ...Object.values(columns));
      listEntries.contacts.push([id, contactListJson(contact, shares, [])]);
      if (org) add('contact_shares', id, org, iso(created), name.toLowerCase());
    }
  }
  for (const [i, u] of users.entries()) {
    for (let j = 0; j < shareOf(sizes.notes, sizes.users, i); j++) {
      const created = past(365);
      add(
        'journals',
        randomUUID(),
        u.id,
        `Note ${j + 1}. ${LOREM.slice(0, 100 + r.int(100))}`,
        day(created),
        iso(created),
        iso(created),
      );
    }
    for (let j = 0; j < shareOf(sizes.goals, sizes.users, i); j++) {
      const id = randomUUID();
      const created = past(300);
      const object = r.pick(OBJECTS);
      add(
        'strategic_goals',
        id,
        u.id,
        orgIds[r.pick(u.orgs)],
        `Improve ${object} (${j + 1})`,
        `Make measurable progress on the ${object} this half.`,
        day(created + (30 + r.int(300)) * DAY),
        r.pick(GOAL_STATUSES),
        iso(created),
        iso(created),
      );
      const kpis = 1 + r.int(3);
      for (let p = 0; p < kpis; p++) {
        const target = 10 + r.int(990);
        add('goal_kpis', randomUUID(), id, p, `KPI ${p + 1}`, r.int(target), target, r.pick(KPI_UNITS));
      }
    }
  }

  for (const table of Object.keys(tables) as Table[]) {
    await db.insert(table, tables[table], rows[table]);
    rows[table] = [];
  }
  // Stored list entries last: the share rows inserted after a record make the database forget its
  // entry (0026, 0027), as they would on a server.
  for (const [table, entries] of Object.entries(listEntries)) await db.setColumn(table, 'list_json', entries);
  await db.analyze();

  // The organization with the most shared tasks, and its member who belongs to most organizations.
  const busiest = await db.get<{ organization_id: string; n: number | string }>(
    'select organization_id, count(*) as n from task_shares group by organization_id order by n desc limit 1',
  );
  if (!busiest) throw new Error('no task was shared');
  const heavyUser = users
    .filter((u) => u.level === 'user' && u.orgs.some((k) => orgIds[k] === busiest.organization_id))
    .sort((a, b) => b.orgs.length - a.orgs.length)[0];
  const orgs = heavyUser.orgs.map((k) => orgIds[k]);
  const inOrgs = orgs.map(() => '?').join(', ');
  // count(*) is a bigint (a string) on PostgreSQL.
  const one = async (sql: string, ...args: string[]) =>
    Number((await db.get<{ n: number | string }>(sql, args))?.n);
  const heavy = {
    email: heavyUser.email,
    orgs: orgs.length,
    visibleTasks: await one(
      `select count(*) as n from tasks where created_by = ? or assigned_to_user_id = ? or id in (select task_id from task_shares where organization_id in (${inOrgs}))`,
      heavyUser.id,
      heavyUser.id,
      ...orgs,
    ),
    visibleContacts: await one(
      `select count(*) as n from contacts where user_id = ? or id in (select contact_id from contact_shares where organization_id in (${inOrgs}))`,
      heavyUser.id,
      ...orgs,
    ),
    notes: await one('select count(*) as n from journals where user_id = ?', heavyUser.id),
  };
  counts.inbox_items = await seedInbox(db, users, heavyUser.id);
  const visibleGoals = await one(
    `select count(*) as n from strategic_goals where user_id = ? or organization_id in (${inOrgs})`,
    heavyUser.id,
    ...orgs,
  );
  return {
    counts,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    heavy,
    visibleGoals,
    busiestOrgShares: Number(busiest.n),
    rotation: rotationIndexes(users.length).map((i) => users[i].email),
  };
}

/** Inbox items: a quarter pending, spread over the users; the measured user gets 150 pending ones. */
async function seedInbox(db: SeedDb, users: readonly { id: string }[], heavyId: string): Promise<number> {
  const r = prng(19);
  const now = Date.now();
  const rows: unknown[][] = [];
  for (let i = 0; i < SIZES.inbox_items; i++) {
    const heavy = i < 150;
    const title = `${r.pick(VERBS)} the ${r.pick(OBJECTS)}`;
    const details = JSON.stringify({ title, priority: r.pick(PRIORITIES), based_on: LOREM.slice(0, 120) });
    rows.push([
      randomUUID(),
      'task_suggestion',
      'task_suggestion',
      randomUUID(),
      '/app/my-tasks',
      heavy ? heavyId : r.pick(users).id,
      null,
      title,
      LOREM.slice(0, 160),
      details,
      heavy || r.int(4) === 0 ? 'pending' : 'resolved',
      new Date(now - r.int(30 * DAY)).toISOString(),
    ]);
  }
  await db.insert(
    'inbox_items',
    [
      'id',
      'kind',
      'source_type',
      'source_id',
      'source_url',
      'assignee_user_id',
      'organization_id',
      'title',
      'summary',
      'details',
      'status',
      'created_at',
    ],
    rows,
  );
  await db.analyze();
  return rows.length;
}
