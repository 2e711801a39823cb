import type { Kysely } from 'kysely';

// Invitations are consented to (issue 16): an invite row keeps who sent it and whether the invitee
// accepted or declined it, so acting on it twice is a 409 and a declined invite can be sent again.
// An account created by a platform admin "through" an organization is managed by it: only then may
// that organization's admins change its e-mail, names or password.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organization_members')
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  // pending | accepted | declined; null for memberships that were never invitations.
  await db.schema.alterTable('organization_members').addColumn('invite_status', 'text').execute();
  await db
    .updateTable('organization_members')
    .set({ invite_status: 'pending' })
    .where('is_invite', '=', 1)
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('managed_by_organization_id', 'text', (c) =>
      c.references('organizations.id').onDelete('set null'),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('managed_by_organization_id').execute();
  await db.schema.alterTable('organization_members').dropColumn('invite_status').execute();
  await db.schema.alterTable('organization_members').dropColumn('invited_by').execute();
}
