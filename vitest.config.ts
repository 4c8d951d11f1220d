import { defineConfig } from 'vitest/config';

/** Tests that start processes, browsers or databases of their own, or sweep every route. */
const SLOW = [
  'test/hostile-bodies.test.ts',
  'test/server.test.ts',
  'test/restart.test.ts',
  'test/viewer-browser.test.ts',
  'test/web-browser.test.ts',
  'test/garbage.test.ts',
  'test/migrations.test.ts',
  'test/viewer-xss.test.ts',
  'test/cli.test.ts',
  'test/demo.test.ts',
  'test/access-matrix.test.ts',
  'test/fuzz.test.ts',
  'test/crash.test.ts',
  'test/scale-out.test.ts',
  'test/database-outage.test.ts',
  'test/getting-started.test.ts',
];

/** TEST_TIER picks a tier (npm run test:unit, test:api, test:slow); unset runs everything. */
const TIERS: Record<string, { include: string[]; exclude?: string[] }> = {
  unit: { include: ['test/unit/**/*.test.ts'] },
  api: { include: ['test/*.test.ts'], exclude: SLOW },
  slow: { include: SLOW },
  all: { include: ['test/**/*.test.ts'] },
};
const tier = TIERS[process.env.TEST_TIER ?? 'all'];
if (!tier) throw new Error(`TEST_TIER must be one of ${Object.keys(TIERS).join(', ')}`);

// On PGlite each worker holds an embedded database (~150 MB); PostgreSQL workers only hold a
// connection pool to a database of their own, so more of them fit.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: tier.include,
    exclude: tier.exclude ?? [],
    globalSetup: ['test/helpers/global-setup.ts'],
    // One database per worker process, reset between files: a new PGlite costs seconds.
    pool: 'forks',
    isolate: false,
    maxWorkers: onPostgres ? 4 : 2,
    // Only a guard against a hang: tests wait for events, never for time, and a test that starts
    // server processes on a machine saturated by other work can take minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    sequence: { hooks: 'stack' },
  },
});
