import { type SqlBool, sql } from 'kysely';
import { inOrgs, registerSearchVisibility } from '../../ai/search/visibility.ts';

// The internal search returns a file to its owner and to the members of the organizations it is shared
// with: the same rule as GET /api/files/{id}. Migration 0008 keeps the 'file' rows of the index current.
registerSearchVisibility(
  'file',
  (v) => sql<SqlBool>`exists (select 1 from files f where f.id = d.entity_id
    and (f.user_id = ${v.userId}
      or exists (select 1 from file_shares s where s.file_id = f.id and ${inOrgs('s.organization_id', v.orgIds)})))`,
);
