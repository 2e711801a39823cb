import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { ARTIFACTS_DIR, E2E_DIR } from './support/paths.ts';

const CI = !!process.env.CI;

/**
 * Debian's Chromium (browser downloads are not possible on these machines). Override with
 * CHROMIUM_PATH to use another build.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: path.join(E2E_DIR, 'specs'),
  outputDir: path.join(ARTIFACTS_DIR, 'test-results'),
  // The global setup starts the built server once (fresh SQLite database, demo workspace) and exports
  // its address as E2E_BASE_URL; its return value stops it.
  globalSetup: path.join(E2E_DIR, 'support', 'global-setup.ts'),
  // One server, one worker: the journeys share the demo workspace, so they run one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: path.join(ARTIFACTS_DIR, 'results.json') }]],
  use: {
    // Workers load this file after the global setup ran, so the variable is set by then.
    baseURL: process.env.E2E_BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    video: 'off',
    viewport: { width: 1280, height: 800 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    locale: 'en-US',
    timezoneId: 'UTC',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        headless: true,
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
  ],
});
