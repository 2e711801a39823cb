import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db, Dialect } from '../index.ts';
import { withStartupLock } from '../startup-lock.ts';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_workspace.ts';
import * as m0003 from './0003_workspace_perf.ts';
import * as m0004 from './0004_ai_core.ts';
import * as m0005 from './0005_conversations.ts';
import * as m0006 from './0006_task_suggestions.ts';
import * as m0007 from './0007_comms.ts';
import * as m0008 from './0008_files.ts';
import * as m0009 from './0009_runs.ts';
import * as m0010 from './0010_realtime.ts';
import * as m0011 from './0011_interrupted_replies.ts';
import * as m0012 from './0012_org_invitations.ts';
import * as m0013 from './0013_record_versions.ts';
import * as m0014 from './0014_tool_approvals.ts';
import * as m0015 from './0015_inbox_items.ts';
import * as m0016 from './0016_activity.ts';
import * as m0017 from './0017_kpi_checkins_goal_links.ts';
import * as m0018 from './0018_briefs.ts';
import * as m0019 from './0019_usage_budgets.ts';
import * as m0020 from './0020_api_keys.ts';
import * as m0021 from './0021_oidc.ts';
import * as m0022 from './0022_search_statistics.ts';
import * as m0023 from './0023_mcp_tools.ts';
import * as m0024 from './0024_read_changes.ts';
import * as m0025 from './0025_pg_list_plans.ts';
import * as m0026 from './0026_task_list_json.ts';
import * as m0027 from './0027_contact_list_json.ts';
import * as m0028 from './0028_goal_list_json.ts';
import * as m0029 from './0029_identity_verification.ts';
import * as m0032 from './0032_approval_binding.ts';
import * as m0033 from './0033_tool_gating.ts';
import * as m0034 from './0034_spend_leases.ts';
import * as m0040 from './0040_models_settings.ts';
import * as m0035 from './0035_goal_numbers.ts';
import * as m0041 from './0041_connections.ts';

/** Migrations are imported statically so the bundled server carries them; append new ones in order. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_workspace': m0002,
  '0003_workspace_perf': m0003,
  '0004_ai_core': m0004,
  '0005_conversations': m0005,
  '0006_task_suggestions': m0006,
  '0007_comms': m0007,
  '0008_files': m0008,
  '0009_runs': m0009,
  '0010_realtime': m0010,
  '0011_interrupted_replies': m0011,
  '0012_org_invitations': m0012,
  '0013_record_versions': m0013,
  '0014_tool_approvals': m0014,
  '0015_inbox_items': m0015,
  '0016_activity': m0016,
  '0017_kpi_checkins_goal_links': m0017,
  '0018_briefs': m0018,
  '0019_usage_budgets': m0019,
  '0020_api_keys': m0020,
  '0021_oidc': m0021,
  '0022_search_statistics': m0022,
  '0023_mcp_tools': m0023,
  '0024_read_changes': m0024,
  '0025_pg_list_plans': m0025,
  '0026_task_list_json': m0026,
  '0027_contact_list_json': m0027,
  '0028_goal_list_json': m0028,
  '0029_identity_verification': m0029,
  '0032_approval_binding': m0032,
  '0033_tool_gating': m0033,
  '0034_spend_leases': m0034,
  '0035_goal_numbers': m0035,
  '0040_models_settings': m0040,
  '0041_connections': m0041,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Safe from several instances at once: on PostgreSQL it runs under the start-up lock. */
export async function migrateToLatest(db: Db, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await withStartupLock(db, dialect, () => migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
