import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import {
  createInMemoryStore,
  createMemory,
  type MemoryClient,
  type MemoryOptions,
  type MemoryStoreWith,
} from '../../src/index.js';

// What the store-matrix tests share: the stores every scenario runs on, temporary
// directories that clean up after the test file, and a logger that says nothing.
//
// The helpers register `afterAll` hooks, so call them at the top of a test file or in a
// `describe` block, never inside a test. This module itself does so when a test file
// imports it (vitest evaluates each test file's imports afresh).

/** memoir's own stores: every optional member of the port but `stageChange` and `recordedEmbedder`, which only some have. */
export type FullStore = MemoryStoreWith<
  | 'searchLexical'
  | 'searchVector'
  | 'transaction'
  | 'count'
  | 'listUnembedded'
  | 'recordAccess'
  | 'stats'
  | 'resetEmbeddings'
  | 'check'
>;

/** Makes a fresh, unopened store. */
export type StoreFactory = () => FullStore;

/** A logger that drops every line. */
export const quiet = { log() {} };

/** A new temporary directory, removed with everything in it after the calling test file. */
export function tempDir(prefix = 'memoir-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A function that names a new file on every call (`<name>-1<extension>`, `<name>-2<extension>`, …)
 * in a temporary directory made on first use and removed after the calling test file.
 */
export function freshPaths(name: string, extension = '.sqlite'): () => string {
  let dir: string | undefined;
  let count = 0;
  // Removing a few hundred LanceDB directories took over a minute of a niced, loaded process
  // (the Node matrix beside npm test).
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 300_000);
  return () => {
    dir ??= mkdtempSync(join(tmpdir(), `memoir-${name}-`));
    return join(dir, `${name}-${++count}${extension}`);
  };
}

const sqlitePath = freshPaths('store');
const lancePath = freshPaths('lancedb', '');

/**
 * Every store the store-matrix tests run on, for `describe.each(STORES)`. A new store joins
 * them all with one line here.
 */
export const STORES: Array<[name: string, make: StoreFactory]> = [
  ['in-memory', () => createInMemoryStore()],
  ['sqlite', () => createSqliteStore({ path: sqlitePath() })],
  ['lancedb', () => createLanceStore({ uri: lancePath() })],
];

/** A fresh store from `make` and a client over it that logs nothing; `options` add to that or override it. */
export function storeAndClient(
  make: StoreFactory,
  options: Omit<MemoryOptions, 'store'> = {},
): { store: FullStore; memory: MemoryClient } {
  const store = make();
  const memory = createMemory({ store, logger: quiet, ...options });
  return { store, memory };
}

/** Every item of an async iterable, in order: the lines of an export, say. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
