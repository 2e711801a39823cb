import type { Kysely } from 'kysely';

// Who owns an e-mail address (issue 46 rows 1-2). An account records when its e-mail was verified here,
// when it last signed in with a password and when its e-mail last changed; single sign-on auto-links
// only to a verified account whose password was used since. An invitation is bound to the invited
// account (when one existed) or to a one-time secret e-mailed to the address (only its hash is kept).
// `email_confirmations` holds the links sent to an address: the sign-up verification and the pending
// change of a managed account's e-mail. `oidc_logins` also keeps a link waiting for the account's
// password (the provider identity it would link).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('password_sign_in_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('email_changed_at', 'text').execute();
  await db.schema
    .alterTable('organization_members')
    .addColumn('invited_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('organization_members').addColumn('invite_secret_hash', 'text').execute();
  await db.schema
    .createIndex('organization_members_invite_secret_uq')
    .on('organization_members')
    .column('invite_secret_hash')
    .unique()
    .execute();
  // Pending invitations from before: bound to the account that owns the e-mail now, if any; the rest
  // can be accepted by nobody until they are sent again.
  await db
    .updateTable('organization_members')
    .set((eb) => ({
      invited_user_id: eb
        .selectFrom('users')
        .select('users.id')
        .whereRef('users.email', '=', 'organization_members.email'),
    }))
    .where('is_invite', '=', 1)
    .where('invite_status', '=', 'pending')
    .execute();
  await db.schema
    .createTable('email_confirmations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // verify (the account's own address) | change (a new address for the account)
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('email_confirmations_user_idx')
    .on('email_confirmations')
    .columns(['user_id', 'purpose'])
    .execute();
  await db.schema.alterTable('oidc_logins').addColumn('link_issuer', 'text').execute();
  await db.schema.alterTable('oidc_logins').addColumn('link_subject', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oidc_logins').dropColumn('link_subject').execute();
  await db.schema.alterTable('oidc_logins').dropColumn('link_issuer').execute();
  await db.schema.dropTable('email_confirmations').ifExists().execute();
  await db.schema.dropIndex('organization_members_invite_secret_uq').ifExists().execute();
  await db.schema.alterTable('organization_members').dropColumn('invite_secret_hash').execute();
  await db.schema.alterTable('organization_members').dropColumn('invited_user_id').execute();
  await db.schema.alterTable('users').dropColumn('email_changed_at').execute();
  await db.schema.alterTable('users').dropColumn('password_sign_in_at').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
