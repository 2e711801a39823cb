import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Who may see a search hit, per entity type: a SQL condition on `d.entity_id` (the record's id) for the
 * caller, mirroring the REST API's rules (server/src/platform/access.ts and the modules' services).
 * A type with no registered rule is never returned. The files module registers 'file' here and adds
 * its own triggers writing `search_documents` rows with entity_type 'file' in its migration.
 */
export interface Viewer {
  userId: string;
  orgIds: readonly string[];
}

export type VisibilityRule = (v: Viewer) => RawBuilder<SqlBool>;

const rules = new Map<string, VisibilityRule>();

export function registerSearchVisibility(entityType: string, rule: VisibilityRule): void {
  rules.set(entityType, rule);
}

export function visibilityRules(): ReadonlyMap<string, VisibilityRule> {
  return rules;
}

/** `column in (orgIds)`, or false for no organizations. */
export function inOrgs(column: string, orgIds: readonly string[]): RawBuilder<SqlBool> {
  if (orgIds.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...orgIds])})`;
}

// Goals and advice: the owner and the members of the record's organization.
registerSearchVisibility(
  'goal',
  (v) => sql<SqlBool>`exists (select 1 from strategic_goals g where g.id = d.entity_id
    and (g.user_id = ${v.userId} or ${inOrgs('g.organization_id', v.orgIds)}))`,
);
registerSearchVisibility(
  'advice',
  (v) => sql<SqlBool>`exists (select 1 from strategic_advice a where a.id = d.entity_id
    and (a.user_id = ${v.userId} or ${inOrgs('a.organization_id', v.orgIds)}))`,
);
// Tasks: the creator, the assignee and the members of the organizations it is shared with.
registerSearchVisibility(
  'task',
  (v) => sql<SqlBool>`exists (select 1 from tasks t where t.id = d.entity_id
    and (t.created_by = ${v.userId} or t.assigned_to_user_id = ${v.userId}
      or exists (select 1 from task_shares s where s.task_id = t.id and ${inOrgs('s.organization_id', v.orgIds)})))`,
);
// Notes are private to their owner.
registerSearchVisibility(
  'note',
  (v) => sql<SqlBool>`exists (select 1 from journals j where j.id = d.entity_id and j.user_id = ${v.userId})`,
);
// Contacts: the owner and the members of the organizations it is shared with.
registerSearchVisibility(
  'contact',
  (v) => sql<SqlBool>`exists (select 1 from contacts c where c.id = d.entity_id
    and (c.user_id = ${v.userId}
      or exists (select 1 from contact_shares s where s.contact_id = c.id and ${inOrgs('s.organization_id', v.orgIds)})))`,
);
