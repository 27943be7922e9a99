import { makeMemory, makeOpinion, unitVector } from 'memoir/testing';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { LanceCallGate } from '../../src/adapters/lancedb/lancedb-call-gate.js';
import { loadLanceLibraries } from '../../src/adapters/lancedb/lancedb-driver.js';
import { createMemory } from '../../src/index.js';
import { freshPaths, quiet } from '../helpers/stores.js';

// Calls in flight on LanceDB's table handles. LanceDB 0.37.1 fails a call still running on a
// handle that is closed ("Table … is closed"); 0.38 and later refuse the close itself ("cannot
// be borrowed mutably while another borrow is active"). The store closes a handle only once no
// call is running on it, and every call started before close() settles as if close() had waited.

const nextDir = freshPaths('lancedb-in-flight', '');
const dims = 4;

async function openStore(uri = nextDir()) {
  const store = createLanceStore({ uri, logger: quiet });
  await store.open({ id: 'e', dimensions: dims });
  return store;
}

type Store = Awaited<ReturnType<typeof openStore>>;

/** One of every kind of call the store makes on its handles: reads, writes, counts, a transaction. */
function mixedCalls(store: Store, round: number): Promise<unknown>[] {
  const id = (n: number) => `r${round}-${n}`;
  return [
    store.count(),
    store.count({ scope: { userId: 'u1' } }),
    store.searchLexical({ text: 'tea kettle', limit: 5 }),
    store.searchVector({ vector: unitVector(dims, 2), limit: 5 }),
    store.get('memory', ['seed-1', 'seed-2']),
    store.list('memory', { limit: 3 }),
    store.getEmbeddings(['seed-1']),
    store.stats(),
    store.recordedEmbedder(),
    store.put('memory', [{ memory: makeMemory({ id: id(1), content: 'tea kettle' }), embedding: unitVector(dims, 1) }]),
    store.put('memory', [{ memory: makeMemory({ id: id(2) }), embedding: null }]),
    store.delete('memory', [id(2)]),
    store.put('opinion', [makeOpinion({ id: id(3) })]),
    store.get('opinion', [id(3)]),
    store.recordAccess(['seed-1'], '2025-01-02T00:00:00.000Z'),
    store.transaction(async () => {
      await store.put('memory', [{ memory: makeMemory({ id: id(4) }), embedding: unitVector(dims, 3) }]);
      await store.put('opinion', [makeOpinion({ id: id(5) })]);
    }),
  ];
}

const CALLS_PER_ROUND = 16;

async function seed(store: Store): Promise<void> {
  await store.put(
    'memory',
    Array.from({ length: 20 }, (_, n) => ({
      memory: makeMemory({ id: `seed-${n}`, content: `seed ${n} tea kettle` }),
      embedding: unitVector(dims, n % dims),
    })),
  );
}

const rejected = (settled: PromiseSettledResult<unknown>[]) =>
  settled.flatMap((result, index) =>
    result.status === 'rejected' ? [`call ${index % CALLS_PER_ROUND}: ${String(result.reason)}`] : [],
  );

describe('LanceDB calls in flight', () => {
  it('a table or connection behind the gate closes only once the calls on it have settled', async () => {
    const { lancedb } = await loadLanceLibraries('error');
    const errors: unknown[] = [];
    const gate = new LanceCallGate({ onCloseError: (error) => errors.push(error) });
    const connection = gate.track(await lancedb.connect(nextDir()));
    const rows = Array.from({ length: 500 }, (_, n) => ({ id: `id${n}`, n }));
    const table = await connection.createTable('t', rows);
    // Every kind of call a handle takes: its own, a builder's, and its name read during them.
    const calls = [
      table.countRows(),
      table.add([{ id: 'x', n: -1 }]),
      table
        .mergeInsert('id')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute([{ id: 'y', n: -2 }]),
      table.query().where('n > 10').limit(5).toArray(),
      table.listIndices(),
      connection.tableNames(),
    ];
    expect(table.name).toBe('t');
    expect(gate.inFlight(table)).toBeGreaterThan(0);
    table.close();
    connection.close();
    table.close();
    // Put off while its calls run.
    expect(table.isOpen()).toBe(true);
    const results = await Promise.all(calls);
    expect(results[0]).toBe(500);
    expect(results[5]).toEqual(['t']);
    await gate.closed();
    expect(errors).toEqual([]);
    expect(table.isOpen()).toBe(false);
    await expect(table.countRows()).rejects.toThrow(/closed/i);
  });

  it('close() waits for every call started before it, whichever stage each is at, then closes', async () => {
    // close() at once, after a turn of the event loop, and a few milliseconds in: calls are
    // caught before, inside and between their LanceDB calls.
    for (const delay of [-1, 0, 2, 5, 15, 40]) {
      const uri = nextDir();
      const store = await openStore(uri);
      await seed(store);
      const calls = mixedCalls(store, 0);
      if (delay >= 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const closing = store.close();
      const settled = await Promise.allSettled(calls);
      await expect(closing, `close() after ${delay} ms`).resolves.toBeUndefined();
      expect(rejected(settled), `calls in flight when close() ran after ${delay} ms`).toEqual([]);
      // What was acknowledged is on disk.
      const reopened = await openStore(uri);
      expect((await reopened.get('memory', ['r0-1', 'r0-4'])).map((memory) => memory.id)).toEqual(['r0-1', 'r0-4']);
      expect(await reopened.get('opinion', ['r0-3', 'r0-5'])).toHaveLength(2);
      await reopened.close();
    }
  }, 120_000);

  it('many calls at once on the same tables all succeed', async () => {
    const store = await openStore();
    await seed(store);
    const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, round) => mixedCalls(store, round)).flat());
    expect(rejected(settled)).toEqual([]);
    expect(await store.count()).toBe(20 + 6 * 2);
    await store.close();
  }, 120_000);

  it('a second close() and a close() racing the first connect both resolve', async () => {
    const store = createLanceStore({ uri: nextDir(), logger: quiet });
    const opening = store.open({ id: 'e', dimensions: dims });
    const closing = Promise.all([store.close(), store.close()]);
    await Promise.allSettled([opening]);
    await expect(closing).resolves.toEqual([undefined, undefined]);
  });

  // 1,000 at once run in tests/core/close-drains.test.ts (minutes for LanceDB: three commits a
  // retain); 60 here keep this file fast while as many calls overlap on each handle.
  it('60 concurrent retains through the client all land, with recalls beside them', async () => {
    const uri = nextDir();
    const memory = createMemory({ store: createLanceStore({ uri, logger: quiet }), logger: quiet });
    const retains = Array.from({ length: 60 }, (_, n) => memory.retain(`note number ${n} about the garden`));
    const recalls = Array.from({ length: 10 }, () => memory.recall('garden note'));
    const settled = await Promise.allSettled([...retains, ...recalls]);
    expect(rejected(settled)).toEqual([]);
    expect((await memory.stats()).memories).toBe(60);
    await memory.close();
    const reopened = createMemory({ store: createLanceStore({ uri, logger: quiet }), logger: quiet });
    expect((await reopened.stats()).memories).toBe(60);
    await reopened.close();
  }, 120_000);
});
