import type { Kysely } from 'kysely';

// Single sign-on (issue 22). `oidc_logins` holds one sign-in in flight: the PKCE verifier, state and
// nonce from the start until the provider comes back (any instance may get the callback), then the
// one-time code the web exchanges for a session. `user_identities` links a provider's subject to an
// account, so a later change of e-mail at the provider still finds the same account.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oidc_logins')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('exchange_hash', 'text', (c) => c.unique())
    .execute();
  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('user_identities_issuer_subject_uq', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user_idx').on('user_identities').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_identities').ifExists().execute();
  await db.schema.dropTable('oidc_logins').ifExists().execute();
}
