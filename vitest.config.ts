import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './tests/helpers/slow-files-first.js';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const TEST_FILES = ['tests/**/*.test.ts', 'examples/**/*.test.ts'];
// Contract files are run by each adapter's test, never on their own.
const NEVER_ALONE = ['**/node_modules/**', 'tests/contracts/**'];
/**
 * In-process tests of the core, the settings and the public API's properties share a worker's
 * module cache from file to file: loading the sources again for each of these 80 files was a
 * quarter of their CPU time (525 CPU-s isolated, 399 shared, on 2 cores). Files elsewhere start
 * servers, browsers, child processes and native stores whose leftovers slowed the files after
 * them when shared (a SQLite test ran ten times slower), so each of those gets a fresh worker.
 */
const SHARED = ['tests/core/**/*.test.ts', 'tests/config/**/*.test.ts', 'tests/property/**/*.test.ts'];
/**
 * Files under SHARED that change what the process holds for the next file (module mocks, spies
 * on globals, environment variables, fake timers) or measure the process itself (peak RSS,
 * event-loop gaps): each runs in a fresh worker.
 */
const OWN_PROCESS = [
  'tests/config/settings-precedence.test.ts',
  'tests/core/backup-disk-full.test.ts',
  'tests/core/backup-hostile-archive.test.ts',
  'tests/core/backup-streaming.test.ts',
  'tests/core/client-maintenance.test.ts',
  'tests/core/client-schedule.test.ts',
  'tests/core/maintenance-schedule-catch-up.test.ts',
  'tests/core/native-or-scan.test.ts',
  'tests/core/retention-defaults.test.ts',
  'tests/core/retention.test.ts',
];

export default defineConfig({
  resolve: {
    // Tests and examples import the package by name, as a user does, and get the sources
    // (tsconfig.json maps the same names for the type check). Exact matches only: each entry
    // is its own file, and no deeper path is public.
    alias: [
      { find: /^memoir$/, replacement: source('./src/index.ts') },
      { find: /^memoir\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^memoir\/testing\/contracts$/, replacement: source('./src/testing/contracts/index.ts') },
      { find: /^memoir\/store-kit$/, replacement: source('./src/core/store-kit/index.ts') },
    ],
  },
  test: {
    testTimeout: 30_000,
    // Opening and closing a LanceDB directory or a child process can take over vitest's 10 s
    // default on a loaded 2-core machine; a hook that hangs still fails, a minute later.
    hookTimeout: 60_000,
    pool: 'forks',
    // Many files spend most of their time waiting on child processes, servers and disks, so
    // one worker per core leaves cores idle; vitest's default (cores - 1) runs a 2-core machine
    // one file at a time. A third worker on two cores (npm test kept 1.3 cores busy with two)
    // made it slower, not faster: half the files in 20 minutes, and two timed tests failed.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      { extends: true, test: { name: 'isolated', include: TEST_FILES, exclude: [...NEVER_ALONE, ...SHARED] } },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
      {
        extends: true,
        test: { name: 'shared', include: SHARED, exclude: [...NEVER_ALONE, ...OWN_PROCESS], isolate: false },
      },
    ],
  },
});
