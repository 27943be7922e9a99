import { runCurrentTruthContract, runMemoryStoreContract } from 'memoir/testing/contracts';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { freshPaths } from '../helpers/stores.js';

const nextPath = freshPaths('sqlite');

describe('with usearch', () => {
  runMemoryStoreContract({ name: 'sqlite', create: () => createSqliteStore({ path: nextPath() }) });
});

describe('with the JavaScript scan', () => {
  runMemoryStoreContract({
    name: 'sqlite (javascript scan)',
    create: () => createSqliteStore({ path: nextPath(), vectorSearch: 'javascript' }),
  });
});

it('uses usearch when it loads', async () => {
  const store = createSqliteStore({ path: nextPath() });
  await store.open({ id: 'e', dimensions: 4 });
  expect(store.vectorMode).toBe('usearch');
  await store.close();
});

runCurrentTruthContract({
  name: 'sqlite',
  create: () => {
    const path = nextPath();
    return { store: createSqliteStore({ path }), reopen: () => createSqliteStore({ path }) };
  },
});
