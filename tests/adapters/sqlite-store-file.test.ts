import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import type { SqliteDatabaseConstructor } from '../../src/adapters/sqlite/sqlite-driver.js';
import { migrate, SCHEMA_VERSION } from '../../src/adapters/sqlite/sqlite-schema.js';
import { createInMemoryStore, createLocalEmbedder, createMemory, type LogLevel, StoreError } from '../../src/index.js';
import { makeMemory, unitVector } from '../contracts/memory-fixtures.js';
import { canMakeReadOnly, fingerprint, makeReadOnly } from '../helpers/damage.js';
import { quiet, tempDir } from '../helpers/stores.js';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as SqliteDatabaseConstructor;
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
    const [memory] = await store.get('memory', ['old-1']);
    expect(memory).toMatchObject({ id: 'old-1', scope: { userId: 'u1' }, entities: ['Keeper'] });
    await store.close();
    const reopened = new Database(path);
    expect(reopened.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(reopened.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    const tables = reopened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).not.toContain('memories_fts');
    expect(tables).toContain('memory_tombstones');
    reopened.close();
  });

  it("re-indexes a schema 7 store's memories with a context, so their own words outweigh their neighbours'", async () => {
    const path = nextPath();
    const store = createSqliteStore({ path });
    await store.open({ id: 'e', dimensions: 4 });
    const turn = makeMemory({ id: 'turn', content: 'We adopted a greyhound.', context: 'The weather was mild.' });
    const plain = makeMemory({ id: 'plain', content: 'A greyhound runs fast.' });
    await store.put('memory', [
      { memory: turn, embedding: null },
      { memory: plain, embedding: null },
    ]);
    await store.close();
    // What schema 7 stored: own text once, then the context.
    const old = new Database(path);
    old.prepare("UPDATE memories SET lexical_terms = 'adopt greyhound weather mild' WHERE id = 'turn'").run();
    old.pragma('user_version = 7');
    const generation = old.prepare("SELECT value FROM memoir_meta WHERE key = 'index_generation'").pluck().get();
    old.close();

    const reopened = createSqliteStore({ path });
    await reopened.open({ id: 'e', dimensions: 4 });
    await reopened.close();
    const db = new Database(path);
    const terms = (id: string) => db.prepare('SELECT lexical_terms FROM memories WHERE id = ?').pluck().get(id);
    expect(terms('turn')).toBe('adopt greyhound adopt greyhound weather mild');
    expect(terms('plain')).toBe('greyhound run fast');
    expect(db.prepare("SELECT value FROM memoir_meta WHERE key = 'index_generation'").pluck().get()).not.toBe(
      generation,
    );
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
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
    expect((await store.list('memory', { filter: { entities: ['zoe'] } })).map((m) => m.id)).toEqual(['zoe-1']);
    expect((await store.list('memory', { filter: { entities: ['ZOË'] } })).map((m) => m.id)).toEqual(['zoe-1']);
    expect(await store.count({ entities: ['cafe ølby'] })).toBe(1);
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
  it('finds the same neighbours with usearch and with the JavaScript scan, on one file', async () => {
    const path = nextPath();
    const scanning = createSqliteStore({ path, vectorSearch: 'javascript' });
    await scanning.open({ id: 'e', dimensions: 4 });
    expect(scanning.vectorMode).toBe('javascript');
    await scanning.put(
      'memory',
      Array.from({ length: 50 }, (_, index) => ({
        memory: makeMemory({ id: `m${String(index).padStart(2, '0')}` }),
        embedding: unitVector(4, index),
      })),
    );
    const scanned = await scanning.searchVector!({ vector: unitVector(4, 7), limit: 10 });
    await scanning.close();
    const simd = createSqliteStore({ path });
    await simd.open({ id: 'e', dimensions: 4 });
    expect(simd.vectorMode).toBe('usearch');
    expect(await simd.searchVector!({ vector: unitVector(4, 7), limit: 10 })).toEqual(scanned);
    await simd.close();
  });

  it('applies a narrow filter exactly, however far down the nearest neighbours it sits', async () => {
    const store = createSqliteStore({ path: nextPath() });
    await store.open({ id: 'e', dimensions: 4 });
    const records = Array.from({ length: 2000 }, (_, index) => ({
      memory: makeMemory({ id: `m${String(index).padStart(4, '0')}`, sessionId: index === 1999 ? 'rare' : 'common' }),
      embedding: unitVector(4, index),
    }));
    await store.put('memory', records);
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

describe('the in-process search index', () => {
  const hitIds = (hits: Array<{ id: string }>) => hits.map((hit) => hit.id);
  // Two stores on one new file: one writes, the other's index must follow.
  const twoConnections = async () => {
    const path = nextPath();
    const reader = createSqliteStore({ path });
    const writer = createSqliteStore({ path });
    await reader.open({ id: 'e', dimensions: 4 });
    await writer.open({ id: 'e', dimensions: 4 });
    return { reader, writer };
  };

  it('follows inserts, updates and deletes made through another connection', async () => {
    const { reader, writer } = await twoConnections();
    await writer.put('memory', [
      { memory: makeMemory({ id: 'a', content: 'harbour pilots board at dawn' }), embedding: unitVector(4, 1) },
      { memory: makeMemory({ id: 'b', content: 'the ferry leaves at noon' }), embedding: unitVector(4, 2) },
    ]);
    expect(hitIds(await reader.searchLexical!({ text: 'harbour ferry', limit: 5 })).sort()).toEqual(['a', 'b']);
    expect(reader.searchIndexStats()).toMatchObject({ memories: 2, loads: 1 });

    await writer.put('memory', [
      { memory: makeMemory({ id: 'a', content: 'lighthouse keepers' }), embedding: unitVector(4, 3) },
      { memory: makeMemory({ id: 'c', content: 'harbour fees rise' }), embedding: unitVector(4, 4) },
    ]);
    await writer.delete('memory', ['b']);
    expect(hitIds(await reader.searchLexical!({ text: 'harbour ferry', limit: 5 }))).toEqual(['c']);
    expect(hitIds(await reader.searchLexical!({ text: 'lighthouse', limit: 5 }))).toEqual(['a']);
    expect(hitIds(await reader.searchVector!({ vector: unitVector(4, 3), limit: 1 }))).toEqual(['a']);
    // Caught up from the change sequence, not reloaded.
    expect(reader.searchIndexStats()).toMatchObject({ memories: 2, loads: 1 });

    await writer.resetEmbeddings({ id: 'e2', dimensions: 4 });
    expect(await reader.searchVector!({ vector: unitVector(4, 3), limit: 5 })).toEqual([]);
    expect(reader.searchIndexStats()?.loads).toBe(2);
    await reader.close();
    await writer.close();
  });

  it('rescores with the vector a memory has now, after another connection changed it', async () => {
    const { reader, writer } = await twoConnections();
    await writer.put('memory', [
      { memory: makeMemory({ id: 'a', content: 'harbour pilots' }), embedding: unitVector(4, 1) },
      { memory: makeMemory({ id: 'b', content: 'ferry times' }), embedding: unitVector(4, 2) },
    ]);
    // Twice: the second search rescores from the vectors the first one read.
    for (let round = 0; round < 2; round++) {
      const hits = await reader.searchVector!({ vector: unitVector(4, 1), limit: 2 });
      expect(hits[0]).toMatchObject({ id: 'a' });
      expect(hits[0]!.score).toBeCloseTo(1, 5);
    }
    await writer.put('memory', [
      { memory: makeMemory({ id: 'a', content: 'harbour pilots' }), embedding: unitVector(4, 3) },
    ]);
    const after = await reader.searchVector!({ vector: unitVector(4, 1), limit: 2 });
    expect(after.find((hit) => hit.id === 'a')?.score ?? 0).toBeLessThan(0.5);
    await writer.resetEmbeddings({ id: 'e2', dimensions: 4 });
    await writer.put('memory', [
      { memory: makeMemory({ id: 'b', content: 'ferry times' }), embedding: unitVector(4, 1) },
    ]);
    expect(await reader.searchVector!({ vector: unitVector(4, 1), limit: 2 })).toEqual([
      { id: 'b', score: expect.closeTo(1, 5) },
    ]);
    await reader.close();
    await writer.close();
  });

  it('forgets what a rolled-back transaction indexed', async () => {
    const store = createSqliteStore({ path: nextPath() });
    await store.open({ id: 'e', dimensions: 4 });
    await store.put('memory', [{ memory: makeMemory({ id: 'kept', content: 'kept anchor' }), embedding: null }]);
    const failed = store.transaction(async () => {
      await store.put('memory', [{ memory: makeMemory({ id: 'gone', content: 'gone anchor' }), embedding: null }]);
      expect(hitIds(await store.searchLexical!({ text: 'anchor', limit: 5 })).sort()).toEqual(['gone', 'kept']);
      throw new Error('abort');
    });
    await expect(failed).rejects.toThrow('abort');
    expect(hitIds(await store.searchLexical!({ text: 'anchor', limit: 5 }))).toEqual(['kept']);
    await store.close();
  });

  it('ranks as the in-memory store does, with the same BM25 scores', async () => {
    const store = createSqliteStore({ path: nextPath() });
    const reference = createInMemoryStore();
    await store.open({ id: 'e', dimensions: 4 });
    await reference.open({ id: 'e', dimensions: 4 });
    const words = ['tide', 'harbour', 'pilot', 'ferry', 'anchor', 'keeper', 'storm', 'gull'];
    const records = Array.from({ length: 300 }, (_, index) => ({
      memory: makeMemory({
        id: `m${String(index).padStart(3, '0')}`,
        content: Array.from({ length: 3 + (index % 7) }, (_, j) => words[(index * 7 + j * 3) % words.length]).join(' '),
      }),
      embedding: unitVector(4, index),
    }));
    await store.put('memory', records);
    await reference.put('memory', records);
    for (const text of ['tide pilot', 'storm gull anchor', 'keeper']) {
      const ours = await store.searchLexical!({ text, limit: 20 });
      const theirs = await reference.searchLexical!({ text, limit: 20 });
      expect(hitIds(ours)).toEqual(hitIds(theirs));
      for (const [i, hit] of ours.entries()) expect(hit.score).toBeCloseTo(theirs[i]!.score, 9);
    }
    await store.close();
    await reference.close();
  });
});

describe('the search index snapshot', () => {
  const hitIds = (hits: Array<{ id: string }>) => hits.map((hit) => hit.id);
  const words = ['tide', 'harbour', 'pilot', 'ferry', 'anchor', 'keeper', 'storm', 'gull', 'reef', 'buoy'];
  const record = (index: number, salt = 0) => ({
    memory: makeMemory({
      id: `m${String(index).padStart(3, '0')}`,
      content: Array.from({ length: 4 + (index % 5) }, (_, j) => words[(index * 3 + j * 7 + salt) % words.length]).join(
        ' ',
      ),
      scope: { userId: index % 3 === 0 ? 'ann' : 'bob' },
    }),
    embedding: unitVector(8, index + salt * 1000),
  });
  const probe = async (store: ReturnType<typeof createSqliteStore>) => ({
    lexical: await store.searchLexical!({ text: 'tide storm reef', limit: 15, filter: { scope: { userId: 'ann' } } }),
    vector: await store.searchVector!({ vector: unitVector(8, 5), limit: 10 }),
  });

  it('is written once the index is big enough, read back by the next process, and caught up with later writes', async () => {
    const path = nextPath();
    const first = createSqliteStore({ path, indexSnapshotMinMemories: 50 });
    await first.open({ id: 'e', dimensions: 8 });
    await first.put(
      'memory',
      Array.from({ length: 120 }, (_, i) => record(i)),
    );
    await first.searchLexical!({ text: 'tide', limit: 1 });
    expect(first.searchIndexStats()?.lastLoadFrom).toBe('rows');
    await first.close();

    // Changes after the snapshot: replaced, deleted and new memories, from another connection.
    const writer = createSqliteStore({ path, indexSnapshotMinMemories: 50 });
    await writer.open({ id: 'e', dimensions: 8 });
    await writer.put('memory', [record(3, 1), record(7, 2), record(200), record(201)]);
    await writer.delete('memory', ['m010', 'm011']);
    await writer.close();

    const restored = createSqliteStore({ path, indexSnapshotMinMemories: 50 });
    await restored.open({ id: 'e', dimensions: 8 });
    const fromSnapshot = await probe(restored);
    expect(restored.searchIndexStats()).toMatchObject({ lastLoadFrom: 'snapshot', memories: 120 });
    await restored.close();

    const db = new Database(path);
    db.exec('DROP TABLE search_index_snapshot');
    db.close();
    const rebuilt = createSqliteStore({ path, indexSnapshotMinMemories: 1_000_000 });
    await rebuilt.open({ id: 'e', dimensions: 8 });
    const fromRows = await probe(rebuilt);
    expect(rebuilt.searchIndexStats()?.lastLoadFrom).toBe('rows');
    expect(fromSnapshot).toEqual(fromRows);
    expect(hitIds(fromRows.lexical).length).toBeGreaterThan(0);
    await rebuilt.close();
  });

  it('a damaged snapshot is ignored: the index is rebuilt from the rows', async () => {
    const path = nextPath();
    const first = createSqliteStore({ path, indexSnapshotMinMemories: 50 });
    await first.open({ id: 'e', dimensions: 8 });
    await first.put(
      'memory',
      Array.from({ length: 80 }, (_, i) => record(i)),
    );
    const expected = await probe(first);
    await first.close();
    const db = new Database(path);
    expect(db.prepare('SELECT count(*) FROM search_index_snapshot').pluck().get()).toBeGreaterThan(0);
    db.prepare("UPDATE search_index_snapshot SET data = x'0102' WHERE name = 'postings.slots'").run();
    db.close();
    const reopened = createSqliteStore({ path, indexSnapshotMinMemories: 50 });
    await reopened.open({ id: 'e', dimensions: 8 });
    expect(await probe(reopened)).toEqual(expected);
    expect(reopened.searchIndexStats()?.lastLoadFrom).toBe('rows');
    await reopened.close();
  });
});

describe("lexicalStatistics: 'scope' keeps BM25 statistics inside the scope", () => {
  const tenant = (userId: string, count: number, words: string[]) =>
    Array.from({ length: count }, (_, index) => ({
      memory: makeMemory({
        id: `${userId}-${String(index).padStart(3, '0')}`,
        content: Array.from({ length: 3 + (index % 4) }, (_, j) => words[(index + j * 3) % words.length]).join(' '),
        scope: { userId },
      }),
      embedding: unitVector(4, index),
    }));
  const ann = tenant('ann', 40, ['tide', 'harbour', 'pilot', 'ferry', 'anchor', 'keeper']);
  const bob = tenant('bob', 400, ['tide', 'tide', 'pilot', 'storm', 'gull']);

  for (const [name, make] of [
    ['sqlite', () => createSqliteStore({ path: nextPath(), lexicalStatistics: 'scope' })],
    ['in-memory', () => createInMemoryStore({ lexicalStatistics: 'scope' })],
  ] as const) {
    it(`${name}: a tenant's scores do not move when another tenant writes`, async () => {
      const store = make();
      await store.open({ id: 'e', dimensions: 4 });
      await store.put('memory', ann);
      const query = { text: 'tide pilot anchor', limit: 10, filter: { scope: { userId: 'ann' } } };
      const before = await store.searchLexical!(query);
      await store.put('memory', bob);
      const after = await store.searchLexical!(query);
      expect(after).toEqual(before);
      // With the default, store-wide statistics, the same write does move them.
      const shared = name === 'sqlite' ? createSqliteStore({ path: nextPath() }) : createInMemoryStore();
      await shared.open({ id: 'e', dimensions: 4 });
      await shared.put('memory', ann);
      const sharedBefore = await shared.searchLexical!(query);
      await shared.put('memory', bob);
      expect(await shared.searchLexical!(query)).not.toEqual(sharedBefore);
      await shared.close();
      expect(after.length).toBe(10);
      // Unscoped (admin) search still ranks over everything.
      const all = await store.searchLexical!({ text: 'tide pilot anchor', limit: 450 });
      expect(all.some((hit) => hit.id.startsWith('bob'))).toBe(true);
      await store.close();
    });
  }

  it('the SQLite and in-memory stores give the same scoped scores', async () => {
    const sqlite = createSqliteStore({ path: nextPath(), lexicalStatistics: 'scope' });
    const memory = createInMemoryStore({ lexicalStatistics: 'scope' });
    for (const store of [sqlite, memory]) {
      await store.open({ id: 'e', dimensions: 4 });
      await store.put('memory', [...ann, ...bob]);
    }
    const query = { text: 'tide storm anchor', limit: 20, filter: { scope: { userId: 'bob' } } };
    const ours = await sqlite.searchLexical!(query);
    const theirs = await memory.searchLexical!(query);
    expect(ours.map((hit) => hit.id)).toEqual(theirs.map((hit) => hit.id));
    for (const [i, hit] of ours.entries()) expect(hit.score).toBeCloseTo(theirs[i]!.score, 9);
    await sqlite.close();
    await memory.close();
  });
});
