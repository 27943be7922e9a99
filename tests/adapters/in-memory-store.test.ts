import { axisVector, makeMemory, makeOpinion, unitVector } from 'memoir/testing';
import { runCurrentTruthContract, runMemoryStoreContract } from 'memoir/testing/contracts';
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, type InMemoryStoreOptions } from '../../src/adapters/in-memory/index.js';
import { ConfigError, StoreError } from '../../src/core/spec/errors.js';
import type { Memory } from '../../src/core/spec/memory.js';
import type { Opinion } from '../../src/core/spec/records.js';
import { Bm25Index } from '../../src/core/text/bm25-index.js';
import type { FullStore } from '../helpers/stores.js';

runMemoryStoreContract({ name: 'in-memory', create: () => createInMemoryStore() });

const DIMS = 4;

async function openStore(options?: InMemoryStoreOptions): Promise<FullStore> {
  const store = createInMemoryStore(options);
  await store.open({ id: 'test-embedder', dimensions: DIMS });
  return store;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('createInMemoryStore', () => {
  it('declares its capabilities and name', () => {
    const store = createInMemoryStore();
    expect(store.capabilities).toEqual({ persistent: false, transactions: 'atomic', crossProcess: 'none' });
    expect(typeof store.searchLexical).toBe('function');
    expect(typeof store.searchVector).toBe('function');
    expect(typeof store.transaction).toBe('function');
    expect(store.name).toBe('in-memory');
    expect(createInMemoryStore({ name: 'scratch' }).name).toBe('scratch');
  });

  it('rejects bad options with a ConfigError naming the field', () => {
    const attempt = (options: unknown) => () => createInMemoryStore(options as InMemoryStoreOptions);
    expect(attempt({ name: '' })).toThrow(/name/);
    try {
      attempt({ name: '' })();
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).field).toBe('name');
      expect((error as ConfigError).component).toBe('in-memory-store');
    }
    for (const bad of [{ bogus: 1 }, { name: 42 }, 42, null, 'in-memory']) {
      let caught: unknown;
      try {
        attempt(bad)();
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.isInstance(caught), JSON.stringify(bad)).toBe(true);
    }
  });
});

describe('in-memory BM25', () => {
  it('scores match a hand-computed BM25 for a 3-document corpus', async () => {
    const store = await openStore();
    await store.put(
      'memory',
      [
        makeMemory({ id: 'd1', content: 'apple banana' }),
        makeMemory({ id: 'd2', content: 'apple apple cherry' }),
        makeMemory({ id: 'd3', content: 'banana cherry durian fig' }),
      ].map((memory) => ({ memory, embedding: null })),
    );
    // N = 3, document lengths 2, 3, 4, so avgdl = 3; k1 = 1.2, b = 0.75.
    const idfApple = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)); // df = 2
    const idfDurian = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5)); // df = 1
    const d1 = (idfApple * 1 * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 2) / 3)); // tf 1, dl 2
    const d2 = (idfApple * 2 * 2.2) / (2 + 1.2 * (0.25 + (0.75 * 3) / 3)); // tf 2, dl 3
    const d3 = (idfDurian * 1 * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 4) / 3)); // tf 1, dl 4

    const apple = await store.searchLexical!({ text: 'apple', limit: 10 });
    expect(apple.map((hit) => hit.id)).toEqual(['d2', 'd1']);
    expect(apple[0]!.score).toBeCloseTo(d2, 12);
    expect(apple[1]!.score).toBeCloseTo(d1, 12);
    expect(apple[0]!.score).toBeCloseTo(0.646255, 5);

    const both = await store.searchLexical!({ text: 'apple durian apples', limit: 10 });
    expect(both.map((hit) => hit.id)).toEqual(['d3', 'd2', 'd1']);
    expect(both.map((hit) => hit.score)).toEqual([d3, d2, d1].map((score) => expect.closeTo(score, 12)));

    // A filter hides documents from the result but not from the corpus statistics.
    const filtered = await store.searchLexical!({ text: 'apple', filter: { ids: ['d1'] }, limit: 10 });
    expect(filtered).toEqual([{ id: 'd1', score: expect.closeTo(d1, 12) }]);
    await store.close();
  });

  it('statistics stay exact through replace, delete and rollback', async () => {
    const texts = ['apple banana', 'apple apple cherry', 'banana cherry durian fig'];
    const final = texts.map((content, i) => makeMemory({ id: `d${i + 1}`, content }));
    const fresh = await openStore();
    await fresh.put(
      'memory',
      final.map((memory) => ({ memory, embedding: null })),
    );

    const churned = await openStore();
    await churned.put(
      'memory',
      [...final.slice(0, 2), makeMemory({ id: 'd3', content: 'apple apple apple' }), makeMemory({ id: 'x' })].map(
        (memory) => ({ memory, embedding: null }),
      ),
    );
    await churned.put('memory', [{ memory: final[2]!, embedding: null }]);
    await churned.delete('memory', ['x']);
    await churned
      .transaction(async () => {
        await churned.put('memory', [{ memory: makeMemory({ id: 'y', content: 'apple durian' }), embedding: null }]);
        await churned.delete('memory', ['d1']);
        throw new Error('roll back');
      })
      .catch(() => undefined);

    for (const text of ['apple', 'banana cherry', 'durian apple', 'fig']) {
      expect(await churned.searchLexical!({ text, limit: 10 }), text).toEqual(
        await fresh.searchLexical!({ text, limit: 10 }),
      );
    }
    await fresh.close();
    await churned.close();
  });

  it('incremental add, replace and remove give the same scores as a fresh index', () => {
    const docs: Record<string, string> = {
      a: 'the quick brown fox jumps over the lazy dog',
      b: 'a quick brown dog outpaces a quick fox',
      c: 'lazy afternoons with brown bread',
      d: 'foxes and dogs and more foxes',
    };
    const incremental = new Bm25Index();
    incremental.add('a', 'something entirely different');
    for (const [id, text] of Object.entries(docs)) incremental.add(id, text);
    incremental.add('gone', 'quick quick quick fox fox brown');
    expect(incremental.remove('gone')).toBe(true);
    expect(incremental.remove('gone')).toBe(false);
    incremental.add('c', docs.c!);

    const fresh = new Bm25Index();
    for (const [id, text] of Object.entries(docs)) fresh.add(id, text);

    expect(incremental.size).toBe(4);
    expect(incremental.averageLength).toBe(fresh.averageLength);
    for (const query of ['quick fox', 'lazy', 'brown dog', 'different', 'foxes']) {
      expect(incremental.search(query, { limit: 10 }), query).toEqual(fresh.search(query, { limit: 10 }));
    }
    expect(incremental.search('different', { limit: 10 })).toEqual([]);
    expect(incremental.documentFrequency('quick')).toBe(2);
  });
});

describe('in-memory store specifics', () => {
  it('stats estimates bytes as UTF-8 JSON of each memory plus 4 bytes per embedding value', async () => {
    const store = await openStore();
    const a = makeMemory({ id: 'a', content: 'café 東京 🎉' });
    const b = makeMemory({ id: 'b' });
    await store.put('memory', [
      { memory: a, embedding: unitVector(DIMS, 1) },
      { memory: b, embedding: null },
    ]);
    const expected =
      Buffer.byteLength(JSON.stringify(a), 'utf8') + Buffer.byteLength(JSON.stringify(b), 'utf8') + 4 * DIMS;
    expect((await store.stats()).bytes).toBe(expected);
    await store.close();
  });

  it('vector search computes true cosine and survives zero vectors', async () => {
    const store = await openStore();
    await store.put('memory', [
      { memory: makeMemory({ id: 'long' }), embedding: new Float32Array([3, 0, 0, 0]) },
      { memory: makeMemory({ id: 'zero' }), embedding: new Float32Array(DIMS) },
    ]);
    const hits = await store.searchVector!({ vector: new Float32Array([0.5, 0, 0, 0]), limit: 10 });
    expect(hits).toEqual([
      { id: 'long', score: 1 },
      { id: 'zero', score: 0 },
    ]);
    const zeroQuery = await store.searchVector!({ vector: new Float32Array(DIMS), limit: 10 });
    expect(zeroQuery).toEqual([
      { id: 'long', score: 0 },
      { id: 'zero', score: 0 },
    ]);
    await store.close();
  });

  it('vector search rejects a query of the wrong dimensions', async () => {
    const store = await openStore();
    const error = await rejection(store.searchVector!({ vector: new Float32Array(DIMS + 1), limit: 1 }));
    expect(StoreError.isInstance(error)).toBe(true);
    await store.close();
  });

  it('before open, a batch must agree with itself and with stored vectors; open must then agree too', async () => {
    const store = createInMemoryStore();
    const mixed = [
      { memory: makeMemory({ id: 'a' }), embedding: unitVector(3, 1) },
      { memory: makeMemory({ id: 'b' }), embedding: unitVector(5, 1) },
    ];
    expect(StoreError.isInstance(await rejection(store.put('memory', mixed)))).toBe(true);
    expect(await store.count()).toBe(0);
    await store.put('memory', [mixed[0]!]);
    const error = await rejection(store.open({ id: 'e', dimensions: 5 }));
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).component).toBe('in-memory-store');
    expect((error as StoreError).suggestion).toContain('memoir reindex');
    await store.open({ id: 'e', dimensions: 3 });
    await store.close();
  });

  it('open rejects a malformed identity', async () => {
    const store = createInMemoryStore();
    expect(StoreError.isInstance(await rejection(store.open({ id: '', dimensions: 4 })))).toBe(true);
    expect(StoreError.isInstance(await rejection(store.open({ id: 'x', dimensions: 0 })))).toBe(true);
    await store.close();
  });

  it('a later duplicate id in one batch wins', async () => {
    const store = await openStore();
    await store.put('memory', [
      { memory: makeMemory({ id: 'a', content: 'first' }), embedding: axisVector(DIMS, 0) },
      { memory: makeMemory({ id: 'a', content: 'second' }), embedding: null },
    ]);
    expect((await store.get('memory', ['a']))[0]!.content).toBe('second');
    expect((await store.getEmbeddings(['a'])).size).toBe(0);
    expect(await store.searchLexical!({ text: 'first', limit: 5 })).toEqual([]);
    await store.close();
  });

  it('refuses a batch holding a value that cannot be copied, writing none of it', async () => {
    const store = await openStore();
    const bad = { ...makeMemory({ id: 'bad' }), metadata: { callback: () => 1 } } as unknown as Memory;
    const error = await rejection(
      store.put('memory', [
        { memory: makeMemory({ id: 'good' }), embedding: null },
        { memory: bad, embedding: null },
      ]),
    );
    expect(StoreError.isInstance(error)).toBe(true);
    expect(await store.count()).toBe(0);
    const opinion = { ...makeOpinion({ id: 'op' }), history: [Symbol('x')] } as unknown as Opinion;
    expect(StoreError.isInstance(await rejection(store.put('opinion', [makeOpinion(), opinion])))).toBe(true);
    expect(await store.list('opinion')).toEqual([]);
    await store.close();
  });

  it('recordAccess counts a repeated id once per call', async () => {
    const store = await openStore();
    await store.put('memory', [{ memory: makeMemory({ id: 'a' }), embedding: null }]);
    await store.recordAccess(['a', 'a', 'a'], '2025-02-01T00:00:00.000Z');
    expect((await store.get('memory', ['a']))[0]!.accessCount).toBe(1);
    await store.close();
  });

  it('a nested transaction rejects instead of deadlocking, and the outer one rolls back', async () => {
    const store = await openStore();
    const outcome = store.transaction(async () => {
      await store.put('memory', [{ memory: makeMemory({ id: 'a' }), embedding: null }]);
      await store.transaction(async () => 1);
    });
    expect(StoreError.isInstance(await rejection(outcome))).toBe(true);
    expect(await store.count()).toBe(0);
    await store.close();
  });

  it('a write started inside a transaction but run after it ended queues normally', async () => {
    const store = await openStore();
    let late: Promise<void> | undefined;
    await store.transaction(async () => {
      late = new Promise<void>((resolve, reject) => {
        setTimeout(() => {
          store.put('memory', [{ memory: makeMemory({ id: 'late' }), embedding: null }]).then(resolve, reject);
        }, 5);
      });
    });
    const blocker = store.transaction(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('rolled back');
    });
    await expect(blocker).rejects.toThrow('rolled back');
    await late;
    expect(await store.count()).toBe(1);
    await store.close();
  });

  it('close waits for a running transaction to commit, then rejects new calls', async () => {
    const store = await openStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running = store.transaction(async () => {
      await gate;
      await store.put('memory', [{ memory: makeMemory({ id: 'a' }), embedding: null }]);
      return 'done';
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const closing = store.close();
    expect(StoreError.isInstance(await rejection(store.count()))).toBe(true);
    release();
    await expect(running).resolves.toBe('done');
    await closing;
    expect(StoreError.isInstance(await rejection(store.get('memory', ['a'])))).toBe(true);
  });
});

runCurrentTruthContract({ name: 'in-memory', create: () => ({ store: createInMemoryStore() }) });
