import { cosineSimilarity, makeMemory, unitVector } from 'memoir/testing';
import { runCurrentTruthContract, runMemoryStoreContract } from 'memoir/testing/contracts';
import { describe, expect, it } from 'vitest';
import { createLanceStore, LANCE_SCHEMA_VERSION } from '../../src/adapters/lancedb/index.js';
import { freshPaths } from '../helpers/stores.js';

const nextDir = freshPaths('lancedb', '');

// The default, search: 'memoir', with the index snapshotted at any size: a case that reopens
// the store starts from the snapshot the last one wrote (on close) and catches up.
runMemoryStoreContract({
  name: 'lancedb',
  create: () => createLanceStore({ uri: nextDir(), indexSnapshotMinMemories: 1 }),
  capabilities: { stageChange: true },
});

// LanceDB's own indexes answer the searches: the cases that search (and those that change what
// a search must see) run again; the rest do not depend on who searches.
runMemoryStoreContract({
  name: 'lancedb (search: native)',
  create: () => createLanceStore({ uri: nextDir(), search: 'native' }),
  capabilities: { stageChange: true },
  skip: [
    {
      matching:
        /^(?!(filter:|lexical:|vector:|unicode:|scope isolation: partial|a 100 KB|resetEmbeddings|transaction rolls back|a replacing change|declares))/,
      reason: 'it does not search: run once, with the default search: memoir',
    },
  ],
});

runCurrentTruthContract({
  name: 'lancedb',
  create: () => {
    const uri = nextDir();
    // Snapshotted at any size, so the reopened store starts from the snapshot its first left.
    const open = () => createLanceStore({ uri, indexSnapshotMinMemories: 1 });
    return { store: open(), reopen: open };
  },
});

describe('lancedb store specifics', () => {
  const dims = 4;
  const open = async (uri: string) => {
    const store = createLanceStore({ uri, logger: { log() {} } });
    await store.open({ id: 'e', dimensions: dims });
    return store;
  };

  it('gathered accesses are counted at once in this process and written by close()', async () => {
    const uri = nextDir();
    const store = await open(uri);
    await store.put('memory', [{ memory: makeMemory({ id: 'a' }), embedding: unitVector(dims, 1) }]);
    const other = await open(uri);
    await store.recordAccess(['a'], '2025-01-02T00:00:00.000Z');
    await store.recordAccess(['a', 'a'], '2025-01-03T00:00:00.000Z');
    expect((await store.get('memory', ['a']))[0]).toMatchObject({
      accessCount: 2,
      lastAccessedAt: '2025-01-03T00:00:00.000Z',
    });
    // Not yet written: another process's store reads the stored count.
    expect((await other.get('memory', ['a']))[0]!.accessCount).toBe(0);
    await store.close();
    expect((await other.get('memory', ['a']))[0]).toMatchObject({
      accessCount: 2,
      lastAccessedAt: '2025-01-03T00:00:00.000Z',
    });
    await other.close();
  });

  it('records the schema version and reopens an existing directory without migrating again', async () => {
    const uri = nextDir();
    const store = await open(uri);
    await store.put('memory', [{ memory: makeMemory({ id: 'a' }), embedding: unitVector(dims, 1) }]);
    await store.close();
    const again = await open(uri);
    const check = await again.check();
    expect(check).toMatchObject({ ok: true, details: { schemaVersion: LANCE_SCHEMA_VERSION } });
    expect(await again.count()).toBe(1);
    expect(await again.recordedEmbedder()).toEqual({ id: 'e', dimensions: dims, hasEmbeddings: true });
    await again.close();
  });

  it('past the row threshold a vector index is built, and scoped searches neither leak nor come back short', async () => {
    const store = createLanceStore({
      uri: nextDir(),
      search: 'native',
      logger: { log() {} },
      index: { vectorIndexMinRows: 256, exactSearchMaxRows: 0, background: false },
    });
    await store.open({ id: 'e', dimensions: 8 });
    // 600 memories, one user holding only 12, scattered across every partition.
    const records = Array.from({ length: 600 }, (_, i) => ({
      memory: makeMemory({ id: `m${String(i).padStart(3, '0')}`, scope: { userId: i % 50 === 0 ? 'rare' : 'common' } }),
      embedding: unitVector(8, i + 1),
    }));
    await store.put('memory', records);
    await store.optimize();
    expect((await store.check()).details?.indexes).toMatch(/vector/);
    const query = unitVector(8, 7);
    const hits = await store.searchVector({ vector: query, limit: 20, filter: { scope: { userId: 'rare' } } });
    expect(hits).toHaveLength(12);
    expect(hits.every((hit) => Number(hit.id.slice(1)) % 50 === 0)).toBe(true);
    // Scores are exact cosines (the index re-ranks on full vectors).
    const byId = new Map(records.map((record) => [record.memory.id, record.embedding]));
    for (const hit of hits) expect(hit.score).toBeCloseTo(cosineSimilarity(query, byId.get(hit.id)!), 5);
    await store.close();
  });

  it('a bad option is a ConfigError naming the field', () => {
    expect(() => createLanceStore({ tableName: '1 bad' })).toThrow(/tableName/);
    expect(() => createLanceStore({ search: 'fast' as never })).toThrow(/search/);
  });

  it("with search: 'memoir', a second store on the directory follows the first's writes and its own", async () => {
    const uri = nextDir();
    const openMemoir = async () => {
      const store = createLanceStore({ uri, search: 'memoir', logger: { log() {} } });
      await store.open({ id: 'e', dimensions: dims });
      return store;
    };
    const writer = await openMemoir();
    const reader = await openMemoir();
    await writer.put('memory', [
      { memory: makeMemory({ id: 'a', content: 'walnut harvest' }), embedding: unitVector(dims, 1) },
      { memory: makeMemory({ id: 'b', content: 'pecan harvest' }), embedding: unitVector(dims, 2) },
    ]);
    const lexical = (store: typeof writer, text: string) =>
      store.searchLexical({ text, limit: 5 }).then((hits) => hits.map((hit) => hit.id));
    expect(await lexical(reader, 'walnut')).toEqual(['a']);
    expect(await lexical(writer, 'harvest')).toHaveLength(2);
    // The writer's own writes reach its index without a reload; the reader reloads at the new version.
    await writer.put('memory', [
      { memory: makeMemory({ id: 'a', content: 'almond' }), embedding: unitVector(dims, 3) },
    ]);
    await writer.delete('memory', ['b']);
    expect(await lexical(writer, 'harvest')).toEqual([]);
    expect(await lexical(writer, 'almond')).toEqual(['a']);
    expect(writer.searchIndexStats()).toMatchObject({ memories: 1, loads: 1 });
    expect(await lexical(reader, 'walnut harvest')).toEqual([]);
    const nearest = await reader.searchVector({ vector: unitVector(dims, 3), limit: 1 });
    expect(nearest).toEqual([{ id: 'a', score: expect.closeTo(1, 5) }]);
    // The reader caught up on the changed rows rather than loading the table again.
    expect(reader.searchIndexStats()).toMatchObject({ memories: 1, loads: 1 });
    expect(reader.searchIndexStats()?.catchUps).toBeGreaterThan(0);
    // A compaction moves rows but changes none: the index catches up and answers the same.
    await writer.optimize();
    expect(await lexical(reader, 'almond')).toEqual(['a']);
    expect(await reader.get('memory', ['a'])).toMatchObject([{ content: 'almond' }]);
    await Promise.all([writer.close(), reader.close()]);
  });
});
