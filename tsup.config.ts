import { readFileSync, writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// One entry per package export; keep in sync with package.json#exports
// (tests/package-exports.test.ts checks it).
export const entries = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
  // Loads vitest (an optional peer): its own entry, so memoir/testing's doubles need no vitest.
  'testing/contracts': 'src/testing/contracts/index.ts',
  'store-kit': 'src/core/store-kit/index.ts',
  sqlite: 'src/adapters/sqlite/index.ts',
  openai: 'src/adapters/openai/index.ts',
  lancedb: 'src/adapters/lancedb/index.ts',
  mcp: 'src/integrations/mcp/index.ts',
  langgraph: 'src/integrations/langgraph/index.ts',
  recorder: 'src/recorder/index.ts',
  'memories-ai': 'src/adapters/memories-ai/index.ts',
  openclaw: 'src/integrations/openclaw/index.ts',
  'ai-sdk': 'src/integrations/ai-sdk/index.ts',
  'sentence-encoder': 'src/adapters/sentence-encoder/index.ts',
};

/**
 * Give each CommonJS entry whose only export is `default` (memoir/openclaw) the shape its types
 * declare: `exports.default`, marked `__esModule`. The build's tree-shaking pass (rollup, with no
 * way to set its `output.exports`) writes `module.exports = plugin` for such an entry instead,
 * while the CommonJS declarations say `export default` — so `require('memoir/openclaw').default`
 * type-checked and then was undefined. The statement is rewritten on its own line, so the source
 * map stays right.
 */
export function namedDefaultExports(outDir: string): void {
  for (const name of Object.keys(entries)) {
    const file = `${outDir}/${name}.cjs`;
    const code = readFileSync(file, 'utf8');
    const fixed = code.replace(
      /^module\.exports = ([\w$]+);$/m,
      "Object.defineProperty(exports, '__esModule', { value: true }); exports.default = $1;",
    );
    if (fixed !== code) writeFileSync(file, fixed);
  }
}

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
  external: ['better-sqlite3', 'usearch', 'openai', '@lancedb/lancedb', 'apache-arrow', 'vitest', /^@energetic-ai\//],
  treeshake: true,
  onSuccess: async () => namedDefaultExports('dist'),
});
