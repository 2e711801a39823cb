import { createHmac, timingSafeEqual } from 'node:crypto';
import Database from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pg from 'pg';

/**
 * What every floor server (bench/floors/) shares: the database of the product server it is compared
 * with, read the plainest correct way (no cache, no stored list entry, no worker, no statement
 * shapes), and the one-lookup bearer check. Both are what a careful developer writes first.
 */

export interface FloorDb {
  engine: 'sqlite' | 'postgres';
  /** Rows of one statement written with `?` placeholders. */
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** One statement that writes (SQLite: its own durable transaction; PostgreSQL: autocommit). */
  run(sql: string, params?: unknown[]): Promise<void>;
}

/** `?` → `$1, $2, ...` (the floors' SQL holds no `?` inside literals). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/**
 * SQLite with the product's durability promise (an acknowledged write survives a power cut):
 * WAL with synchronous=FULL, each write its own transaction. Statements are prepared once per text,
 * as better-sqlite3 is meant to be used.
 */
function openSqlite(file: string): FloorDb {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  return {
    engine: 'sqlite',
    all: async <T>(sql: string, params: unknown[] = []) => prepared(sql).all(...params) as T[],
    run: async (sql, params = []) => {
      prepared(sql).run(...params);
    },
  };
}

/** PostgreSQL through a plain pool of 10 (the product's main pool size), unnamed statements. */
function openPostgres(url: string): FloorDb {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {});
  return {
    engine: 'postgres',
    all: async <T>(sql: string, params: unknown[] = []) =>
      (await pool.query(numbered(sql), params)).rows as T[],
    run: async (sql, params = []) => {
      await pool.query(numbered(sql), params);
    },
  };
}

export function openFloorDb(databaseUrl: string): FloorDb {
  return databaseUrl.startsWith('file:')
    ? openSqlite(databaseUrl.slice('file:'.length))
    : openPostgres(databaseUrl);
}

export interface FloorUser {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  user_level: string;
  organization_id: string | null;
  /** The user's memberships, organization id → org_access_level (invitations left out). */
  levels: Map<string, string>;
}

/** The claims of a valid HS256 access token (signature, algorithm and expiry checked), or null. */
function claimsOf(token: string, secret: string): { sub: string; sid: string } | null {
  const [h, p, s, extra] = token.split('.');
  if (!h || !p || !s || extra !== undefined) return null;
  try {
    if (JSON.parse(Buffer.from(h, 'base64url').toString()).alg !== 'HS256') return null;
    const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const c = JSON.parse(Buffer.from(p, 'base64url').toString());
    if (typeof c.exp !== 'number' || c.exp <= Date.now() / 1000) return null;
    return typeof c.sub === 'string' && typeof c.sid === 'string' ? { sub: c.sub, sid: c.sid } : null;
  } catch {
    return null;
  }
}

/**
 * The one-lookup bearer check: the token's signature, then one indexed select of the live session
 * (primary key) with its user and memberships. A failure answers 401 and returns null.
 */
export async function bearerUser(
  db: FloorDb,
  secret: string,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FloorUser | null> {
  const header = req.headers.authorization ?? '';
  const claims = header.startsWith('Bearer ') ? claimsOf(header.slice(7), secret) : null;
  const agg = db.engine === 'postgres' ? 'string_agg' : 'group_concat';
  const rows = claims
    ? await db.all<Omit<FloorUser, 'levels'> & { expires_at: string; memberships: string | null }>(
        `select u.id, u.email, u.first_name, u.last_name, u.user_level, u.organization_id, s.expires_at,
           (select ${agg}(m.organization_id || '=' || m.org_access_level, ',') from organization_members m
             where m.user_id = u.id and m.is_invite = 0) as memberships
         from sessions s join users u on u.id = s.user_id
         where s.id = ? and s.user_id = ? and s.revoked_at is null`,
        [claims.sid, claims.sub],
      )
    : [];
  const row = rows[0];
  if (!row || row.expires_at <= new Date().toISOString()) {
    reply.code(401).send({ detail: 'Not authenticated' });
    return null;
  }
  const { expires_at: _e, memberships, ...user } = row;
  const levels = new Map<string, string>();
  for (const pair of memberships ? memberships.split(',') : []) {
    const at = pair.lastIndexOf('=');
    levels.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return { ...user, levels };
}

/** PORT, DATABASE_URL and JWT_SECRET of a floor process (set by bench/src/floors.ts). */
export function floorEnv(): { port: number; databaseUrl: string; secret: string } {
  const { PORT, DATABASE_URL, JWT_SECRET } = process.env;
  if (!PORT || !DATABASE_URL || !JWT_SECRET)
    throw new Error('a floor needs PORT, DATABASE_URL and JWT_SECRET');
  return { port: Number(PORT), databaseUrl: DATABASE_URL, secret: JWT_SECRET };
}
