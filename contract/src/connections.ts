import { z } from 'zod';

/**
 * Profile → Connections (issue 49): a person's own calendars (CalDAV, an ICS address) and mailboxes
 * (IMAP, read-only). Credentials (a password, a secret ICS address) are write-only: stored sealed,
 * never returned.
 */
export const CONNECTION_KINDS = ['caldav', 'ics', 'imap'] as const;
export type TConnectionKind = (typeof CONNECTION_KINDS)[number];

export const CONNECTION_STATUSES = ['connected', 'syncing', 'error', 'never_synced'] as const;
export type TConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** How many days of mail an IMAP connection keeps, unless the person chose otherwise. */
export const DEFAULT_MAIL_DAYS = 30;
/** Connections one person may have (each is synced in the background; a handful is the real need). */
export const MAX_CONNECTIONS_PER_PERSON = 20;
export const MAX_MAIL_DAYS = 365;

export const ZConnection = z.object({
  id: z.string(),
  kind: z.enum(CONNECTION_KINDS),
  name: z.string(),
  /** The CalDAV server's address; null for an ICS address (itself a secret) and for IMAP. */
  url: z.string().nullable(),
  /** The server's host name, for every kind (what the list shows). */
  host: z.string(),
  /** IMAP only. */
  port: z.number().int().nullable(),
  tls: z.boolean().nullable(),
  username: z.string().nullable(),
  /** Whether a password is stored (it is never returned). */
  has_password: z.boolean(),
  mail_days: z.number().int().nullable(),
  status: z.enum(CONNECTION_STATUSES),
  last_synced_at: z.string().nullable(),
  /** A sentence for the person (never a server's own answer or a password). */
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TConnection = z.infer<typeof ZConnection>;

const ZName = z.string().trim().min(1, 'A name is required.').max(120);
const ZHttpUrl = z
  .string()
  .trim()
  .max(2_000)
  .refine((s) => /^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s), 'Enter an http(s) address.');
const ZHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:[\]-]+$/, 'Enter a host name or an address.');
const ZUsername = z.string().trim().min(1).max(320);
const ZPassword = z.string().min(1).max(1_000);
const ZPort = z.number().int().min(1).max(65_535);
const ZMailDays = z.number().int().min(1).max(MAX_MAIL_DAYS);

/** Which fields each kind needs (the others are refused, so nothing is stored unused). */
const NEEDS: Record<TConnectionKind, { required: string[]; allowed: string[] }> = {
  caldav: { required: ['url', 'username', 'password'], allowed: ['url', 'username', 'password'] },
  ics: { required: ['url'], allowed: ['url'] },
  imap: {
    required: ['host', 'username', 'password'],
    allowed: ['host', 'port', 'tls', 'username', 'password', 'mail_days'],
  },
};
const KIND_FIELDS = ['url', 'host', 'port', 'tls', 'username', 'password', 'mail_days'] as const;

/** POST /api/connections/: one flat shape; which fields a kind needs is checked per kind. */
export const ZCreateConnectionRequest = z
  .strictObject({
    kind: z.enum(CONNECTION_KINDS),
    name: ZName,
    url: ZHttpUrl.optional(),
    host: ZHost.optional(),
    port: ZPort.optional(),
    tls: z.boolean().optional(),
    username: ZUsername.optional(),
    password: ZPassword.optional(),
    mail_days: ZMailDays.optional(),
  })
  .superRefine((body, ctx) => {
    const needs = NEEDS[body.kind];
    for (const f of KIND_FIELDS) {
      const given = body[f] !== undefined;
      if (!given && needs.required.includes(f)) {
        ctx.addIssue({ code: 'custom', path: [f], message: 'Field required' });
      } else if (given && !needs.allowed.includes(f)) {
        ctx.addIssue({ code: 'custom', path: [f], message: `A ${body.kind} connection has no ${f}.` });
      }
    }
  });
export type TCreateConnectionRequest = z.input<typeof ZCreateConnectionRequest>;

/**
 * PATCH /api/connections/{id}: fields left out, or sent back as the server returned them, stay; a
 * changed field the kind has not is refused (422). Nullable so the returned object round-trips.
 */
export const ZUpdateConnectionRequest = z.strictObject({
  name: ZName.optional(),
  url: ZHttpUrl.nullable().optional(),
  host: ZHost.optional(),
  port: ZPort.nullable().optional(),
  tls: z.boolean().nullable().optional(),
  username: ZUsername.nullable().optional(),
  password: ZPassword.optional(),
  mail_days: ZMailDays.nullable().optional(),
});
export type TUpdateConnectionRequest = z.input<typeof ZUpdateConnectionRequest>;

/** Which update fields a kind accepts (the service refuses the others). */
export const CONNECTION_FIELDS: Record<TConnectionKind, readonly string[]> = {
  caldav: NEEDS.caldav.allowed,
  ics: NEEDS.ics.allowed,
  imap: NEEDS.imap.allowed,
};

/** POST /api/connections/{id}/test: whether the server answered and accepted the credentials. */
export const ZConnectionTestResult = z.object({
  ok: z.boolean(),
  detail: z.string(),
});
export type TConnectionTestResult = z.infer<typeof ZConnectionTestResult>;
