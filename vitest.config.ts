import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Contract files are run by each adapter's test, never on their own.
    exclude: ['**/node_modules/**', 'tests/contracts/**'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
