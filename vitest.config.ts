import { defineConfig } from 'vitest/config';

// One config, six projects: `npm run test:unit` runs contract + bench + web, `npm run test:api` runs the
// server suite once per database engine (PostgreSQL URL provided by scripts/with-postgres.mjs).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', include: ['contract/src/**/*.test.ts'], environment: 'node' } },
      // The bench's own helpers (budgets, engines, seeding); the figures are never a test.
      { test: { name: 'bench', include: ['bench/src/**/*.test.ts'], environment: 'node' } },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: './web',
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // Room for the cold transform of a lazily loaded page (see src/test/setup.ts).
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server-sqlite',
          include: ['server/src/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'sqlite' },
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: ['server/src/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'postgres' },
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        // Real processes and real faults (server/faults/): the built server as a child process,
        // PostgreSQL clusters of its own. One file at a time: they share the machine's two cores.
        test: {
          name: 'faults',
          include: ['server/faults/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
