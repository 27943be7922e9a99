import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './tests/helpers/slow-files-first.js';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests and examples import the package by name, as a user does, and get the sources
    // (tsconfig.json maps the same names for the type check). Exact matches only: each entry
    // is its own file, and no deeper path is public.
    alias: [
      { find: /^memoir$/, replacement: source('./src/index.ts') },
      { find: /^memoir\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^memoir\/testing\/contracts$/, replacement: source('./src/testing/contracts/index.ts') },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts', 'examples/**/*.test.ts'],
    // Contract files are run by each adapter's test, never on their own.
    exclude: ['**/node_modules/**', 'tests/contracts/**'],
    testTimeout: 30_000,
    // Opening and closing a LanceDB directory or a child process can take over vitest's 10 s
    // default on a loaded 2-core machine; a hook that hangs still fails, a minute later.
    hookTimeout: 60_000,
    pool: 'forks',
    // Many files spend most of their time waiting on child processes, servers and disks, so
    // one worker per core leaves cores idle; vitest's default (cores - 1) runs a 2-core machine
    // one file at a time.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFilesFirst },
  },
});
