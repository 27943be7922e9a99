import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore, migrate, SCHEMA_VERSION } from '../../src/adapters/sqlite/index.js';
import type { SqliteDatabaseConstructor } from '../../src/adapters/sqlite/sqlite-driver.js';
import { createLocalEmbedder, createMemory, type LogLevel, StoreError } from '../../src/index.js';
import { makeMemory, unitVector } from '../contracts/memory-fixtures.js';
import { canMakeReadOnly, fingerprint, makeReadOnly } from '../helpers/damage.js';
import { quiet, tempDir } from '../helpers/stores.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as SqliteDatabaseConstructor;
const root = tempDir('memoir-sqlite-file-');
let counter = 0;
const nextPath = () => join(root, `db-${++counter}.sqlite`);

describe('schema migrations', () => {
  it('migrates a database made by schema version 1 and indexes its old rows', async () => {
    const path = nextPath();
    const old = new Database(path);
    migrate(old, 1);
    expect(old.pragma('user_version', { simple: true })).toBe(1);
    old
      .prepare(
        `INSERT INTO memories (id, kind, category, abstract, overview, content, entities, user_id, occurred_at, created_at,
          updated_at, valid_from, importance, bookmarked, access_count, fingerprint, metadata)
         VALUES ('old-1', 'world', 'note', 'Lighthouses', NULL, 'The lighthouse keeper logs every passing ship.', '["Keeper"]',
          'u1', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z',
          '2024-01-01T00:00:00.000Z', 0.5, 0, 0, 'fp', '{}')`,
      )
      .run();
    old.close();

    const store = createSqliteStore({ path });
    await store.open({ id: 'e', dimensions: 4 });
    const hits = await store.searchLexical!({ text: 'lighthouse ships', limit: 5 });
    expect(hits.map((hit) => hit.id)).toEqual(['old-1']);
    const [memory] = await store.getMemories(['old-1']);
    expect(memory).toMatchObject({ id: 'old-1', scope: { userId: 'u1' }, entities: ['Keeper'] });
    await store.close();
    const reopened = new Database(path);
    expect(reopened.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(reopened.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    reopened.prepare("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')").run();
    reopened.close();
  });

  it('migrates entity keys written lower-cased only (schema version 4) to folded ones', async () => {
    const path = nextPath();
    const old = new Database(path);
    migrate(old, 4);
    const { lastInsertRowid } = old
      .prepare(
        `INSERT INTO memories (id, kind, category, abstract, overview, content, entities, occurred_at, created_at,
          updated_at, valid_from, importance, bookmarked, access_count, fingerprint, metadata)
         VALUES ('zoe-1', 'world', 'note', 'Lunch', NULL, 'Lunch at noon.', '["Zoë","Café Ølby"]',
          '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z',
          '2024-01-01T00:00:00.000Z', 0.5, 0, 0, 'fp', '{}')`,
      )
      .run();
    const link = old.prepare('INSERT INTO memory_entities (memory_rowid, entity_key) VALUES (?, ?)');
    link.run(lastInsertRowid, 'zoë');
    link.run(lastInsertRowid, 'café ølby');
    old.close();

    const store = createSqliteStore({ path });
    await store.open({ id: 'e', dimensions: 4 });
    expect((await store.listMemories({ filter: { entities: ['zoe'] } })).map((m) => m.id)).toEqual(['zoe-1']);
    expect((await store.listMemories({ filter: { entities: ['ZOË'] } })).map((m) => m.id)).toEqual(['zoe-1']);
    expect(await store.countMemories({ entities: ['cafe ølby'] })).toBe(1);
    await store.close();
    const reopened = new Database(path);
    expect(reopened.prepare('SELECT entity_key FROM memory_entities ORDER BY entity_key').pluck().all()).toEqual([
      'cafe ølby',
      'zoe',
    ]);
    reopened.close();
  });

  it('refuses a database made by a newer memoir', async () => {
    const path = nextPath();
    const future = new Database(path);
    future.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    future.close();
    const store = createSqliteStore({ path });
    const error = await store.open({ id: 'e', dimensions: 4 }).catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).suggestion).toMatch(/upgrade/i);
  });
});

describe('the file', () => {
  it('keeps memories across processes’ lifetimes: close, reopen, recall', async () => {
    const home = mkdtempSync(join(root, 'home-'));
    const first = createMemory({ home });
    await first.retain({ content: 'The deploy key lives in the vault.', source: { file: 'notes.md', line: 3 } });
    await first.close();
    const second = createMemory({ home });
    const { results } = await second.recall('where is the deploy key');
    expect(results[0]?.memory.content).toBe('The deploy key lives in the vault.');
    expect(results[0]?.citation).toBe('notes.md#L3');
    await second.close();
  });

  it('refuses another embedder once vectors exist, and reindex fixes it', async () => {
    const home = mkdtempSync(join(root, 'home-'));
    const first = createMemory({ home });
    await first.retain(['alpha beta', 'gamma delta']);
    await first.close();
    const other = createMemory({ home, embedder: createLocalEmbedder({ dimensions: 512 }) });
    const error = await other.recall('alpha').catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).suggestion).toContain('memoir reindex');
    const progress: number[] = [];
    expect(await other.reindex({ onProgress: (done) => progress.push(done) })).toEqual({ reembedded: 2 });
    expect(progress).toEqual([2]);
    const { results } = await other.recall('gamma');
    expect(results[0]?.memory.content).toBe('gamma delta');
    expect(results[0]?.breakdown.vector).not.toBeNull();
    await other.close();
  });
});

describe('vector search paths', () => {
  it('warns and falls back to a scan when sqlite-vec cannot load', async () => {
    const warnings: string[] = [];
    const logger = { log: (level: LogLevel, message: string) => level === 'warn' && warnings.push(message) };
    const store = createSqliteStore({ path: nextPath(), vectorExtensionPath: join(root, 'missing-vec0.so'), logger });
    await store.open({ id: 'e', dimensions: 4 });
    expect(store.vectorMode).toBe('scan');
    expect(warnings.join('\n')).toMatch(/sqlite-vec could not load/);
    await store.upsertMemories([
      { memory: makeMemory({ id: 'a' }), embedding: unitVector(4, 1) },
      { memory: makeMemory({ id: 'b' }), embedding: unitVector(4, 2) },
    ]);
    const hits = await store.searchVector!({ vector: unitVector(4, 2), limit: 1 });
    expect(hits[0]?.id).toBe('b');
    await store.close();
  });

  it('rebuilds the vector index when another process wrote vectors without the extension', async () => {
    const path = nextPath();
    const scanning = createSqliteStore({ path, vectorExtension: 'off' });
    await scanning.open({ id: 'e', dimensions: 4 });
    await scanning.upsertMemories([
      { memory: makeMemory({ id: 'a' }), embedding: unitVector(4, 1) },
      { memory: makeMemory({ id: 'b' }), embedding: unitVector(4, 2) },
    ]);
    await scanning.close();
    const indexed = createSqliteStore({ path });
    await indexed.open({ id: 'e', dimensions: 4 });
    expect(indexed.vectorMode).toBe('sqlite-vec');
    const hits = await indexed.searchVector!({ vector: unitVector(4, 1), limit: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(['a', 'b']);
    await indexed.close();
  });

  it('applies a narrow filter exactly, however far down the nearest neighbours it sits', async () => {
    const store = createSqliteStore({ path: nextPath() });
    await store.open({ id: 'e', dimensions: 4 });
    const records = Array.from({ length: 2000 }, (_, index) => ({
      memory: makeMemory({ id: `m${String(index).padStart(4, '0')}`, sessionId: index === 1999 ? 'rare' : 'common' }),
      embedding: unitVector(4, index),
    }));
    await store.upsertMemories(records);
    const hits = await store.searchVector!({ vector: unitVector(4, 7), filter: { sessionId: 'rare' }, limit: 5 });
    expect(hits.map((hit) => hit.id)).toEqual(['m1999']);
    await store.close();
  });
});

describe('a read-only home', () => {
  async function seededHome() {
    const home = mkdtempSync(join(root, 'readonly-'));
    const memory = createMemory({ home, logger: quiet });
    await memory.retain({ content: 'The spare key is under the blue pot.', entities: ['Key'] });
    await memory.close();
    return home;
  }

  async function expectReadOnlyRefusal(promise: Promise<unknown>) {
    const error = await promise.catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error), String(error)).toBe(true);
    expect((error as StoreError).message).toMatch(/is read-only \(/);
    expect((error as StoreError).suggestion).toMatch(/writable/);
  }

  it('readOnly: true allows every read, refuses writes with "read-only", and leaves the file as it was', async () => {
    const home = await seededHome();
    const path = join(home, 'memoir.sqlite');
    const before = fingerprint(path);
    const store = createSqliteStore({ path, readOnly: true, logger: quiet });
    const memory = createMemory({ store, logger: quiet });
    const { results } = await memory.recall('where is the spare key');
    expect(results[0]?.memory.content).toBe('The spare key is under the blue pot.');
    expect(await memory.get(results[0]!.memory.id)).toMatchObject({ entities: ['Key'] });
    expect((await memory.stats()).memories).toBe(1);
    expect(store.readOnly).toMatch(/readOnly: true/);
    await expectReadOnlyRefusal(memory.retain({ content: 'a new memory' }));
    await expectReadOnlyRefusal(memory.forget(results[0]!.memory.id));
    await memory.flush();
    await memory.close();
    expect(fingerprint(path)).toBe(before);
  });

  it('readOnly: true with no store there yet says so instead of creating one', async () => {
    const home = mkdtempSync(join(root, 'readonly-empty-'));
    const store = createSqliteStore({ path: join(home, 'memoir.sqlite'), readOnly: true, logger: quiet });
    const error = await store.open({ id: 'e', dimensions: 4 }).catch((caught: unknown) => caught);
    expect((error as StoreError).message).toMatch(/read-only.*no store to read there yet/);
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(false);
  });

  // Root ignores permissions, so the directory is made immutable (chattr +i) when running as root.
  it.runIf(canMakeReadOnly())(
    'an unwritable directory is opened read-only on its own: reads work, writes say "read-only"',
    async () => {
      const home = await seededHome();
      const path = join(home, 'memoir.sqlite');
      const before = fingerprint(path);
      const undo = makeReadOnly(home, [path]);
      expect(undo).not.toBeNull();
      const warnings: string[] = [];
      const memory = createMemory({
        home,
        logger: { log: (level: LogLevel, message: string) => level === 'warn' && warnings.push(message) },
      });
      try {
        const { results } = await memory.recall('spare key');
        expect(results[0]?.memory.content).toBe('The spare key is under the blue pot.');
        await expectReadOnlyRefusal(memory.retain({ content: 'cannot be stored' }));
        await memory.flush();
        // Without its -shm file SQLite cannot open a WAL database in a read-only directory: it was read into memory.
        expect(warnings.join('\n')).toMatch(/read into memory/);
      } finally {
        await memory.close();
        undo?.();
      }
      expect(fingerprint(path)).toBe(before);
    },
  );
});
