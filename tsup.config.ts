import { defineConfig } from 'tsup';

// One entry per package export; keep in sync with package.json#exports
// (tests/package-exports.test.ts checks it).
export const entries = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
  // Loads vitest (an optional peer): its own entry, so memoir/testing's doubles need no vitest.
  'testing/contracts': 'src/testing/contracts/index.ts',
  sqlite: 'src/adapters/sqlite/index.ts',
  openai: 'src/adapters/openai/index.ts',
  lancedb: 'src/adapters/lancedb/index.ts',
  mcp: 'src/integrations/mcp/index.ts',
  recorder: 'src/recorder/index.ts',
  'memories-ai': 'src/adapters/memories-ai/index.ts',
  openclaw: 'src/integrations/openclaw/index.ts',
};

export default defineConfig({
  // The CLI is built beside the exports, as the `memoir` bin runs it.
  entry: { ...entries, cli: 'src/cli/main.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  // Native modules stay external and load lazily, when a store first opens; vitest, the
  // optional peer the contracts run in, is the user's own copy (the one running the tests).
  external: ['better-sqlite3', 'usearch', 'openai', '@lancedb/lancedb', 'apache-arrow', 'vitest'],
  treeshake: true,
});
