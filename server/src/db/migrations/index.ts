import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from '../index.ts';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_workspace.ts';

/** Migrations are imported statically so the bundled server carries them; append new ones in order. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_workspace': m0002,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
