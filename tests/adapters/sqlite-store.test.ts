import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { runMemoryStoreContract } from '../contracts/memory-store.contract.js';

const root = mkdtempSync(join(tmpdir(), 'memoir-sqlite-'));
let counter = 0;
const nextPath = () => join(root, `store-${++counter}.sqlite`);

afterAll(() => rmSync(root, { recursive: true, force: true }));

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
