import { defineConfig } from 'vitest/config';

/**
 * The tiers are folders: test/unit (pure logic, no database), test/api (the API over HTTP on a
 * real database), test/slow (processes, browsers, migrations, sweeps of every route). TEST_TIER
 * picks one (npm run test:unit, test:api, test:slow); unset runs everything.
 */
const TIERS: Record<string, { include: string[] }> = {
  unit: { include: ['test/unit/**/*.test.ts'] },
  api: { include: ['test/api/**/*.test.ts'] },
  slow: { include: ['test/slow/**/*.test.ts'] },
  all: { include: ['test/{unit,api,slow}/**/*.test.ts'] },
};
const tier = TIERS[process.env.TEST_TIER ?? 'all'];
if (!tier) throw new Error(`TEST_TIER must be one of ${Object.keys(TIERS).join(', ')}`);

// On PGlite each worker holds an embedded database (~150 MB); PostgreSQL workers only hold a
// connection pool to a database of their own, so more of them fit. Three, on two cores: the server
// does part of the work, and a fourth worker only adds contention (the PostgreSQL pass took 177 s
// with 3, 182 s with 2 and 199 s with 4, one after another on an otherwise idle machine).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * What a second engine cannot change, run once (on PGlite): the pure logic of test/unit; the tests
 * that bring a database of their own whatever the run's is (an embedded data directory: restart,
 * data-dir, demo; the embedded engine's client and thread: pglite-client, pglite-thread, priority;
 * a PostgreSQL cluster they start and stop: database-outage); the file processes (file-pool); the
 * bench's load generator (bench-load); and the browser's screens, whose every server call the API
 * tier proves on both engines. On PostgreSQL the browser still walks the whole product once
 * (web-journey) and the hostile-text corpus (viewer-xss) goes through the database to the page.
 */
const ENGINE_INDEPENDENT = [
  'test/unit/**',
  'test/slow/{restart,data-dir,demo,database-outage,pglite-client,pglite-thread,priority,file-pool,bench-load}.test.ts',
  'test/slow/web-{billing,branding,browser,import,mail,onboarding,report-options,reports,schedules,time,webhooks}.test.ts',
  'test/slow/{viewer-browser,docs-browser,invoice-share,export-documents,mail-look}.test.ts',
];

export default defineConfig({
  test: {
    include: tier.include,
    exclude: onPostgres ? ENGINE_INDEPENDENT : [],
    globalSetup: ['test/helpers/global-setup.ts'],
    // One database per worker process, reset between files: a new PGlite costs seconds.
    pool: 'forks',
    isolate: false,
    maxWorkers: onPostgres ? 3 : 2,
    // Only a guard against a hang: tests wait for events, never for time, and a test that starts
    // server processes on a machine saturated by other work can take minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    sequence: { hooks: 'stack' },
    // A failed expectation shows what it got in full (a page's text, a document), not its first 40 characters.
    chaiConfig: { truncateThreshold: 2_000 },
  },
});
