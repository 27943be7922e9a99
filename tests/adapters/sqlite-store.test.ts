import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { runMemoryStoreContract } from '../contracts/memory-store.contract.js';
import { freshPaths } from '../helpers/stores.js';

const nextPath = freshPaths('sqlite');

describe('with sqlite-vec', () => {
  runMemoryStoreContract({ name: 'sqlite', create: () => createSqliteStore({ path: nextPath() }) });
});

describe('with the scan fallback', () => {
  runMemoryStoreContract({
    name: 'sqlite (scan)',
    create: () => createSqliteStore({ path: nextPath(), vectorExtension: 'off' }),
  });
});

it('uses sqlite-vec when it loads', async () => {
  const store = createSqliteStore({ path: nextPath() });
  await store.open({ id: 'e', dimensions: 4 });
  expect(store.vectorMode).toBe('sqlite-vec');
  await store.close();
});
