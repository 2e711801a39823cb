import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './platform/data-dir.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root, whether running from src/ (tsx) or dist/ (bundled). */
const repoRoot = path.resolve(here, '..', '..');

const bool = (def: boolean) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v === '' ? def : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase()),
    );

/**
 * Every environment variable the server reads, parsed and documented in one place
 * (the README's configuration table mirrors this list).
 */
const ZEnv = z.object({
  NODE_ENV: z.string().default('development'),
  /** Port the API and the web app are served on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Interface to listen on; unset: loopback while the demo workspace may be seeded, else every interface. */
  HOST: z.string().optional(),
  /** `file:./data/app.db` (SQLite, default; relative to the repository root) or `postgres://user:pass@host:5432/db`. */
  DATABASE_URL: z.string().default('file:./data/app.db'),
  /**
   * PostgreSQL: send the app's hot statements as named (prepared) statements, planned once per
   * connection. Off for a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  PG_NAMED_STATEMENTS: bool(true),
  /** HS256 secret for access tokens; generated and stored in the data directory when absent. */
  JWT_SECRET: z.string().optional(),
  /** Key (any text, hashed to 256 bits) that encrypts stored secrets such as MCP headers; generated and stored in the data directory when absent. */
  SECRETS_KEY: z.string().optional(),
  /** Create an admin on an empty database with these credentials (instead of the demo workspace). */
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  /** Seed the demo workspace on an empty database (default: on for SQLite, off for PostgreSQL and in production). */
  DEMO_SEED: z.string().optional(),
  /** Password for the demo accounts; generated and printed when absent. */
  DEMO_PASSWORD: z.string().optional(),
  /** Address shown in the landing page footer. */
  CONTACT_EMAIL: z.string().default('beta@commandcentre.example'),
  /** Where uploaded files are stored (relative to the repository root). */
  FILES_DIR: z.string().optional(),
  MAX_UPLOAD_MB: z.coerce.number().positive().default(25),
  /** Directory of the built web app (served with history fallback). */
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Sign-in / sign-up requests allowed per IP per minute. */
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().positive().default(20),
  /** Failed sign-ins allowed per account in 15 minutes before it is temporarily locked. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  /** Per-user limits (per IP without a user); over a limit the call gets 429 with Retry-After. */
  LIMIT_CHAT_TURNS_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Crew and flow run starts (Generate Advice, task suggestions, brief generation) per user per minute. */
  LIMIT_RUN_STARTS_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /** Upload requests (`POST /api/files`; the web sends one file per request) per user per minute. */
  LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /** Bytes of stored files each user may own, in MB (summed from the database). */
  STORAGE_QUOTA_MB: z.coerce.number().positive().default(1024),
  /** Stream tickets (`POST /api/auth/stream-ticket`) per user per minute. */
  LIMIT_STREAM_TICKETS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /** Event streams (SSE) one user may have open at once on one instance. */
  LIMIT_CONCURRENT_STREAMS: z.coerce.number().int().positive().default(20),
  /** MCP requests on /mcp per API key per minute (each element of a JSON-RPC batch counts). */
  LIMIT_MCP_CALLS_PER_KEY_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /** MCP requests on /mcp per user per minute, all of their API keys together. */
  LIMIT_MCP_CALLS_PER_USER_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /** Wrong current passwords on PATCH /api/users/me per user in 15 minutes before it is locked. */
  CURRENT_PASSWORD_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  /** Trust X-Forwarded-* headers (set when behind a reverse proxy). */
  TRUST_PROXY: bool(false),
  /**
   * Memory for cached reads (sessions, list pages) on SQLite, in MB; 0 turns the cache off. Exact:
   * an entry is used only while no table it was read from has changed (docs/decisions/, "Read cache").
   */
  READ_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /**
   * SQLite's page cache, in MB (SQLite's own default is 2). A list page reads scattered rows; each page
   * missing from the cache is a read() from the OS, which cost a miss a fifth of its time.
   */
  SQLITE_CACHE_MB: z.coerce.number().int().min(1).max(65536).default(64),
  /** How much of the SQLite database file is read through memory mapping, in MB; 0 turns it off. */
  SQLITE_MMAP_MB: z.coerce.number().int().min(0).max(1048576).default(1024),
  /** Concurrent SQLite writes share one COMMIT before the flush that acknowledges them (commit-group.ts). */
  SQLITE_SHARED_COMMITS: bool(true),
  /** List pages are read by a connection on a thread of its own while nothing is uncommitted (read-worker.ts). */
  SQLITE_READ_WORKER: bool(true),
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().optional(),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().optional(),
  AI_DEFAULT_MODEL: z.string().default('gpt-5-chat'),
  /** AI core (server/src/ai): request timeout, stream idle timeout, retries on 429/5xx, offline pacing. */
  AI_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  AI_STREAM_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  AI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  AI_OFFLINE_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(1000).default(4),
  /** Comma-separated hosts/IPs/CIDRs outbound AI HTTP (web search, HTTP tools) may reach though private. */
  AI_HTTP_ALLOWLIST: z.string().default(''),
  /** Internet search: `searxng` or `tavily` (JSON APIs); absent → no internet search tool. */
  SEARCH_PROVIDER: z.enum(['searxng', 'tavily']).optional(),
  SEARCH_URL: z.string().optional(),
  SEARCH_API_KEY: z.string().optional(),
  /** Run engine: a worker's lease on a run (renewed while it works; a crashed worker's runs resume after it). */
  RUN_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Runs one server instance executes at once; how often it looks for runnable runs besides wake-ups. */
  RUN_WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(1000).default(16),
  RUN_POLL_MS: z.coerce.number().int().min(50).default(2_000),
  /** Connections (issue 49): how often each is synced, and how long a sync holds it without renewing. */
  CONNECTIONS_SYNC_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
  CONNECTIONS_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  /** The days before and after today that a calendar's recurring events are expanded over. */
  CALENDAR_PAST_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
  CALENDAR_FUTURE_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
  /** A mail larger than this is kept without its text (its headers and attachment names stay). */
  MAIL_MAX_MESSAGE_MB: z.coerce.number().min(0.01).max(1000).default(10),
  /** A model call's hold on the budgets: its instance renews it while the call runs; past it, any instance settles the call as interrupted. */
  SPEND_LEASE_MS: z.coerce.number().int().min(100).default(60_000),
  /** Single sign-on with an OpenID Connect provider: on when the issuer and client id are set. */
  OIDC_ISSUER_URL: z.string().url().optional().or(z.literal('')),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_BUTTON_LABEL: z.string().trim().min(1).max(60).default('Single sign-on'),
  /** Comma-separated e-mail domains whose first sign-in starts as `user` instead of `waitlisted`. */
  OIDC_ALLOWED_DOMAINS: z.string().default(''),
  /** Executive briefs are also e-mailed through this SMTP server (smtp://user:pass@host:587); unset: not e-mailed. */
  SMTP_URL: z.string().optional(),
  /** The sender of brief e-mails. */
  SMTP_FROM: z.string().default('Command Centre <brief@commandcentre.example>'),
  /** The app's public address, for links in e-mails (default http://localhost:PORT). */
  PUBLIC_URL: z.string().optional(),
  /** How often the brief scheduler looks for due briefs; 0 turns the loop off (tests drive it themselves). */
  BRIEF_SCHEDULER_POLL_MS: z.coerce.number().int().min(0).default(60_000),
});

export type DbConfig =
  | {
      kind: 'sqlite';
      file: string;
      /** SQLite's page cache of the connection, in MB (SQLITE_CACHE_MB). */
      cacheMb?: number;
      /** Bytes of the database file read through memory mapping, in MB (SQLITE_MMAP_MB); 0 = off. */
      mmapMb?: number;
      /** Concurrent writes share one COMMIT (SQLITE_SHARED_COMMITS); default true. */
      commitGroups?: boolean;
      /** List pages are read on a thread of their own (SQLITE_READ_WORKER); default true. */
      readWorker?: boolean;
    }
  | {
      kind: 'postgres';
      url: string;
      /** Named (prepared) statements for the hot queries; default true (PG_NAMED_STATEMENTS). */
      namedStatements?: boolean;
    };

export interface AppConfig {
  env: string;
  port: number;
  host: string;
  db: DbConfig;
  dataDir: string;
  jwtSecret: string;
  /** The AES-256-GCM key of stored secrets (SECRETS_KEY, or data/secrets-key). */
  secretsKey: string;
  adminEmail?: string;
  adminPassword?: string;
  demoSeed: boolean;
  demoPassword?: string;
  contactEmail: string;
  filesDir: string;
  maxUploadMb: number;
  webDist: string;
  logLevel: string;
  rateLimitAuthMax: number;
  loginMaxFailures: number;
  trustProxy: boolean;
  /** OpenID Connect single sign-on, when configured. */
  oidc?: {
    issuerUrl: string;
    clientId: string;
    clientSecret?: string;
    buttonLabel: string;
    allowedDomains: string[];
  };
  /** Per-user limits (platform/limits). */
  limits: {
    chatTurnsPerMinute: number;
    runStartsPerMinute: number;
    uploadsPerMinute: number;
    storageQuotaBytes: number;
    streamTicketsPerMinute: number;
    concurrentStreams: number;
    mcpCallsPerKeyPerMinute: number;
    mcpCallsPerUserPerMinute: number;
    currentPasswordMaxFailures: number;
  };
  bodyLimit: number;
  /** Bytes of cached reads (0: none). */
  readCacheBytes: number;
  runs: { leaseMs: number; concurrency: number; pollMs: number };
  connections: {
    syncIntervalMs: number;
    leaseMs: number;
    calendarPastDays: number;
    calendarFutureDays: number;
    mailMaxBytes: number;
  };
  /** Budget reservations: the lease of a call in flight (renewed at a third of it, swept at half). */
  spend: { leaseMs: number };
  briefs: { smtpUrl?: string; smtpFrom: string; publicUrl: string; schedulerPollMs: number };
  ai: {
    openaiApiKey?: string;
    openaiBaseUrl?: string;
    googleApiKey?: string;
    defaultModel: string;
    /** AI_DEFAULT_MODEL is set: it wins over the default model chosen in Super Admin → Models. */
    defaultModelFromEnv: boolean;
    requestTimeoutMs: number;
    streamIdleTimeoutMs: number;
    maxRetries: number;
    offlineTokenDelayMs: number;
    httpAllowlist: string[];
    search?: { provider: 'searxng' | 'tavily'; url?: string; apiKey?: string };
  };
}

/**
 * A relative SQLite file is taken from the repository root, not the working directory: `npm start`
 * (run at the root) and `npm run dev -w server` (run in server/) must open the same `./data/`.
 */
export function parseDatabaseUrl(url: string): DbConfig {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { kind: 'postgres', url };
  if (url === ':memory:' || url === 'file::memory:') return { kind: 'sqlite', file: ':memory:' };
  const file = url.startsWith('file:') ? url.slice('file:'.length) : url;
  return { kind: 'sqlite', file: path.resolve(repoRoot, file) };
}

/** A stored secret survives restarts so sessions stay valid; it is created once with mode 600. */
function storedSecret(dataDir: string, name = 'jwt-secret'): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  ensurePrivateDir(dataDir);
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: PRIVATE_FILE_MODE });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${msg}`);
  }
  const e = parsed.data;
  const db = parseDatabaseUrl(e.DATABASE_URL);
  if (db.kind === 'postgres') {
    db.namedStatements = e.PG_NAMED_STATEMENTS;
  } else
    Object.assign(db, {
      cacheMb: e.SQLITE_CACHE_MB,
      mmapMb: e.SQLITE_MMAP_MB,
      commitGroups: e.SQLITE_SHARED_COMMITS,
      readWorker: e.SQLITE_READ_WORKER,
    });
  const dataDir =
    db.kind === 'sqlite' && db.file !== ':memory:' ? path.dirname(db.file) : path.join(repoRoot, 'data');
  let jwtSecret = e.JWT_SECRET;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    if (e.NODE_ENV === 'production')
      throw new Error('JWT_SECRET must be at least 32 characters in production');
  }
  if (!jwtSecret) jwtSecret = storedSecret(dataDir);
  // The demo workspace (with printed passwords) never appears in production unless asked for.
  const demoSeed =
    e.DEMO_SEED === undefined || e.DEMO_SEED === ''
      ? db.kind === 'sqlite' && e.NODE_ENV !== 'production'
      : bool(false).parse(e.DEMO_SEED);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST || (demoSeed ? '127.0.0.1' : '0.0.0.0'),
    db,
    dataDir,
    jwtSecret,
    secretsKey: e.SECRETS_KEY || storedSecret(dataDir, 'secrets-key'),
    adminEmail: e.ADMIN_EMAIL || undefined,
    adminPassword: e.ADMIN_PASSWORD || undefined,
    demoSeed,
    demoPassword: e.DEMO_PASSWORD || undefined,
    contactEmail: e.CONTACT_EMAIL,
    filesDir: path.resolve(repoRoot, e.FILES_DIR ?? path.join(dataDir, 'files')),
    maxUploadMb: e.MAX_UPLOAD_MB,
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'web', 'dist')),
    logLevel: e.LOG_LEVEL,
    rateLimitAuthMax: e.RATE_LIMIT_AUTH_MAX,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    trustProxy: e.TRUST_PROXY,
    oidc:
      e.OIDC_ISSUER_URL && e.OIDC_CLIENT_ID
        ? {
            issuerUrl: e.OIDC_ISSUER_URL,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET || undefined,
            buttonLabel: e.OIDC_BUTTON_LABEL,
            allowedDomains: e.OIDC_ALLOWED_DOMAINS.split(',')
              .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
              .filter(Boolean),
          }
        : undefined,
    limits: {
      chatTurnsPerMinute: e.LIMIT_CHAT_TURNS_PER_MINUTE,
      runStartsPerMinute: e.LIMIT_RUN_STARTS_PER_MINUTE,
      uploadsPerMinute: e.LIMIT_UPLOADS_PER_MINUTE,
      storageQuotaBytes: Math.round(e.STORAGE_QUOTA_MB * 1024 * 1024),
      streamTicketsPerMinute: e.LIMIT_STREAM_TICKETS_PER_MINUTE,
      concurrentStreams: e.LIMIT_CONCURRENT_STREAMS,
      mcpCallsPerKeyPerMinute: e.LIMIT_MCP_CALLS_PER_KEY_PER_MINUTE,
      mcpCallsPerUserPerMinute: e.LIMIT_MCP_CALLS_PER_USER_PER_MINUTE,
      currentPasswordMaxFailures: e.CURRENT_PASSWORD_MAX_FAILURES,
    },
    bodyLimit: e.BODY_LIMIT,
    readCacheBytes: Math.round(e.READ_CACHE_MB * 1024 * 1024),
    runs: { leaseMs: e.RUN_LEASE_MS, concurrency: e.RUN_WORKER_CONCURRENCY, pollMs: e.RUN_POLL_MS },
    connections: {
      syncIntervalMs: e.CONNECTIONS_SYNC_INTERVAL_MS,
      leaseMs: e.CONNECTIONS_LEASE_MS,
      calendarPastDays: e.CALENDAR_PAST_DAYS,
      calendarFutureDays: e.CALENDAR_FUTURE_DAYS,
      mailMaxBytes: Math.round(e.MAIL_MAX_MESSAGE_MB * 1024 * 1024),
    },
    spend: { leaseMs: e.SPEND_LEASE_MS },
    briefs: {
      smtpUrl: e.SMTP_URL || undefined,
      smtpFrom: e.SMTP_FROM,
      publicUrl: (e.PUBLIC_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      schedulerPollMs: e.BRIEF_SCHEDULER_POLL_MS,
    },
    ai: {
      openaiApiKey: e.OPENAI_API_KEY,
      openaiBaseUrl: e.OPENAI_BASE_URL,
      googleApiKey: e.GOOGLE_GENERATIVE_AI_API_KEY,
      defaultModel: e.AI_DEFAULT_MODEL,
      defaultModelFromEnv: Boolean(env.AI_DEFAULT_MODEL?.trim()),
      requestTimeoutMs: e.AI_REQUEST_TIMEOUT_MS,
      streamIdleTimeoutMs: e.AI_STREAM_IDLE_TIMEOUT_MS,
      maxRetries: e.AI_MAX_RETRIES,
      offlineTokenDelayMs: e.AI_OFFLINE_TOKEN_DELAY_MS,
      httpAllowlist: e.AI_HTTP_ALLOWLIST.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      search: e.SEARCH_PROVIDER
        ? {
            provider: e.SEARCH_PROVIDER,
            url: e.SEARCH_URL || undefined,
            apiKey: e.SEARCH_API_KEY || undefined,
          }
        : undefined,
    },
  };
}
