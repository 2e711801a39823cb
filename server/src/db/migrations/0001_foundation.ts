import type { Kysely } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organizations_name_idx').on('organizations').column('name').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('user_level', 'text', (c) => c.notNull().defaultTo('waitlisted'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('role', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();
  await db.schema.createIndex('users_organization_idx').on('users').column('organization_id').execute();

  await db.schema
    .createTable('profiles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('role', 'text')
    .addColumn('objectives', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('behavior_notes', 'text')
    .addColumn('knowledge_summary', 'text')
    .addColumn('custom_prompts', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('organization_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('org_access_level', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('is_invite', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('organization_members_org_email_uq', ['organization_id', 'email'])
    .execute();
  await db.schema
    .createIndex('organization_members_user_idx')
    .on('organization_members')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('organization_members_email_idx')
    .on('organization_members')
    .column('email')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['organization_members', 'sessions', 'profiles', 'users', 'organizations']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
