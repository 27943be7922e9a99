import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/index.js';
import type { MemoryStore, StoreCapabilities } from '../../src/core/spec/store.js';
import { createMemory, StoreError } from '../../src/index.js';
import type { FullStore } from '../helpers/stores.js';
import { collect, quiet, tempDir } from '../helpers/stores.js';

// The core relies only on what a store declares. A store with the required members alone and
// transactions 'none' still retains, recalls, forgets, counts and reports stats (through the
// core's fallbacks); the operations whose promise needs more — a bulk change all or nothing,
// a reindex that drops embeddings — refuse with a StoreError naming the capability or member.

/**
 * A store with only the required functions of the port, over an in-memory one: no search, no
 * counts, no access recording, no embedding reset, no stats, no transaction(). `withTransaction`
 * gives it one that only runs `work`, to declare a guarantee with. Closing it leaves the inner
 * store open for inspection.
 */
function lesserStore(inner: FullStore, capabilities: StoreCapabilities, withTransaction = false): MemoryStore {
  return {
    specificationVersion: 'v2',
    name: 'lesser',
    capabilities,
    open: (embedder) => inner.open(embedder),
    get: (kind, ids) => inner.get(kind, ids),
    put: (kind, records) => inner.put(kind, records),
    delete: (kind, ids) => inner.delete(kind, ids),
    list: (kind, query) => inner.list(kind, query),
    getEmbeddings: (ids) => inner.getEmbeddings(ids),
    ...(withTransaction ? { transaction: <T>(work: () => Promise<T>) => work() } : {}),
    close: async () => {},
  };
}

const NONE: StoreCapabilities = { crossProcess: 'none' };

function setup(capabilities: StoreCapabilities = NONE, withTransaction = false) {
  const inner = createInMemoryStore();
  const memory = createMemory({
    store: lesserStore(inner, capabilities, withTransaction),
    logger: quiet,
    backupDirectory: tempDir('memoir-lesser-'),
  });
  return { inner, memory };
}

describe('a store that declares less', () => {
  it('retains, recalls (recording access), forgets, counts and reports stats through the fallbacks', async () => {
    const { inner, memory } = setup();
    const {
      ids: [kept, dropped],
    } = await memory.retain([
      { content: 'Peter runs warelay on the Castle.' },
      { content: 'The Castle is a home server in the basement.' },
    ]);
    const recalled = await memory.recall('warelay Castle');
    expect(recalled.results.map((result) => result.memory.id)).toContain(kept);
    expect(await memory.forget(dropped!)).toBe(1);

    const stats = await memory.stats();
    expect(stats).toMatchObject({ memories: 1, opinions: 0, procedures: 0, entities: 0 });
    expect(stats.bytes).toBeGreaterThan(0);
    expect(stats.capabilities).toMatchObject({
      transactions: 'none',
      crossProcess: 'none',
      lexicalSearch: false,
      vectorSearch: false,
      stagedChanges: false,
    });
    expect(stats.capabilities.missing).toEqual(
      expect.arrayContaining(['count', 'recordAccess', 'resetEmbeddings', 'stats', 'transaction', 'searchLexical']),
    );
    const report = await memory.doctor();
    expect(report.capabilities).toEqual(stats.capabilities);
    expect(report).toMatchObject({ ok: true, method: 'probe' });

    await memory.close();
    // The recall's access was recorded through the fallback (read, then written back whole).
    const [after] = await inner.get('memory', [kept!]);
    expect(after!.accessCount).toBe(1);
    expect(after!.lastAccessedAt).not.toBeNull();
    expect((await inner.getEmbeddings([kept!])).size).toBe(1);
    await inner.close();
  });

  it('refuses import, restore and clearAll without transaction() or stageChange(), naming them, and writes nothing', async () => {
    const source = createMemory({ store: createInMemoryStore(), logger: quiet, backupDirectory: tempDir() });
    await source.retain([{ content: 'A note to carry over.' }]);
    const lines = await collect(source.export());
    const backup = await source.backup('carry');
    await source.close();

    const { inner, memory } = setup();
    await memory.retain([{ content: 'Already here.' }]);
    for (const attempt of [
      () => memory.import(lines),
      () => memory.restore(backup.path, { confirm: true }),
      () => memory.clearAll({ confirm: true }),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(StoreError.isInstance(error), String(error)).toBe(true);
      expect((error as StoreError).message).toContain("capabilities.transactions 'atomic' or 'per-table'");
      expect((error as StoreError).message).toContain('the lesser store has neither');
    }
    expect((await inner.list('memory')).map((each) => each.content)).toEqual(['Already here.']);
    await memory.close();
    await inner.close();
  });

  it("runs bulk changes on a store that declares transactions 'per-table'", async () => {
    const { inner, memory } = setup({ transactions: 'per-table', crossProcess: 'none' }, true);
    const source = createMemory({ store: createInMemoryStore(), logger: quiet });
    await source.retain([{ content: 'A note to carry over.' }]);
    const lines = await collect(source.export());
    await source.close();
    expect(await memory.import(lines)).toMatchObject({ memories: 1 });
    expect(await inner.count()).toBe(1);
    await memory.close();
    await inner.close();
  });

  it('refuses a full reindex without resetEmbeddings, naming the member, and re-embeds only missing ones', async () => {
    const { inner, memory } = setup();
    await memory.retain([{ content: 'Embedded once.' }]);
    const error = await memory.reindex().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(StoreError.isInstance(error), String(error)).toBe(true);
    expect((error as StoreError).message).toContain('resetEmbeddings()');
    expect((error as StoreError).suggestion).toContain('onlyMissing');
    expect(await memory.reindex({ onlyMissing: true })).toEqual({ reembedded: 0 });
    await memory.close();
    await inner.close();
  });
});
