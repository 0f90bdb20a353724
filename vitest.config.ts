import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/longest-first.js';
import { transpiledSources } from './test/support/transpiled-sources.js';

// `npm test`: everything that needs no browser on SQLite, then the end-to-end files that exercise the store's SQL
// again with the store on PostgreSQL (decision 1650).
// The end-to-end files whose desk runs SQL that no store test runs on PostgreSQL: proposals and approvals,
// exposure sums, the ledger and the daily reconciliation (with its check of each bet's entries), a proposal's
// placing recovery, closing capture and /stats, the slip-expiry sweep; watches, their episodes and alerts; a backup
// restored into a second desk (pg_dump and pg_restore); racing's multis, stacks, refunds and bonus stakes (issue 46
// asks for both engines).
const E2E_ON_POSTGRES = [
  'test/e2e/alert-burst.test.ts',
  'test/e2e/approvals.test.ts',
  'test/e2e/backup-restore.test.ts',
  'test/e2e/exposure.test.ts',
  'test/e2e/fund.test.ts',
  'test/e2e/fund-books.test.ts',
  'test/e2e/fund-gates.test.ts',
  'test/e2e/fund-risk.test.ts',
  'test/e2e/fund-share.test.ts',
  'test/e2e/ledger.test.ts',
  'test/e2e/poll-restart.test.ts',
  'test/e2e/proposal-placing.test.ts',
  'test/e2e/reconciliation-balance.test.ts',
  'test/e2e/racing-multis.test.ts',
  'test/e2e/racing-refunds.test.ts',
  'test/e2e/racing-stacks.test.ts',
  'test/e2e/reconciliation-entries.test.ts',
  'test/e2e/stats.test.ts',
  'test/e2e/watch-alerts.test.ts',
  'test/e2e/watch-guards.test.ts',
  'test/e2e/watch-value.test.ts',
  'test/chaos/watch-crash.test.ts',
];

// Files share one worker process and module graph (`isolate: false`, decisions 1880 and 1943): a worker loads the
// bot, discord.js and the rest once, not once per file (that loading was a third of the suite's CPU). A file must
// therefore leave no process-wide state behind; `test/support/shared-graph-guard.ts` fails a file that does. These
// two unit files change such state on purpose (undici's global dispatcher, the command loader's module cache), so
// each runs in a process of its own.
const UNIT_ISOLATED = ['test/unit/bot/discord-rest.test.ts', 'test/unit/bot/loader.test.ts'];
const SHARED_GRAPH = { isolate: false, setupFiles: ['test/support/shared-graph-guard.ts'] };

export default defineConfig({
  test: {
    // forks pool: the native sqlite3 addon is not thread-safe to share.
    pool: 'forks',
    // Most files wait on loopback servers and clocks rather than compute: with three at once the suite used 54 % of
    // two cores (800 s of CPU in 742 s); four used 66 % and ended 100 s sooner; five end another 40 s sooner in a
    // fresh clone (517 and 560 s against 562-585 s), with no file slower to be ready.
    maxWorkers: 5,
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A throwaway PostgreSQL cluster for the store tests on both engines (test/pg/cluster.ts); the bot transpiled once for the bot child processes (test/support/bot-js.ts).
    globalSetup: ['test/pg/global-setup.ts', 'test/support/global-bot-js.ts'],
    projects: [
      {
        extends: true,
        plugins: [transpiledSources()],
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/image/**', 'test/unit/**', 'node_modules/**'],
          ...SHARED_GRAPH,
        },
      },
      {
        extends: true,
        test: { name: 'main-isolated-units', include: UNIT_ISOLATED },
      },
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: UNIT_ISOLATED, ...SHARED_GRAPH },
      },
      {
        extends: true,
        plugins: [transpiledSources()],
        test: { name: 'e2e-postgres', include: E2E_ON_POSTGRES, env: { E2E_STORE: 'postgres' }, ...SHARED_GRAPH },
      },
    ],
  },
});
