import { defineConfig } from 'tsup';

// One entry per package export; keep in sync with package.json#exports
// (tests/package-exports.test.ts checks it).
export const entries = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
};

export default defineConfig({
  entry: entries,
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
