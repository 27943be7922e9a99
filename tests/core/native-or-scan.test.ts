import { describe, expect, it, vi } from 'vitest';
import { searchesNatively, searchLexical, searchVector } from '../../src/core/search/native-or-scan.js';
import { coreStore } from '../../src/core/store/store-facade.js';
import { createInMemoryStore, createLocalEmbedder, createMemory, type MemoryStore } from '../../src/index.js';
import { createCounterIds, createFixedClock } from '../../src/testing/index.js';

// One check decides native search or a scan for every caller: the method's presence. A store
// without it is scanned; one with it is asked.

function wrapped(base: MemoryStore, drop: Array<'searchVector' | 'searchLexical'> = []) {
  const searchVector = vi.fn(base.searchVector!.bind(base));
  const searchLexical = vi.fn(base.searchLexical!.bind(base));
  const store = new Proxy(base, {
    has(target, property) {
      return drop.includes(property as 'searchVector') ? false : Reflect.has(target, property);
    },
    get(target, property) {
      if (drop.includes(property as 'searchVector')) return undefined;
      if (property === 'searchVector') return searchVector;
      if (property === 'searchLexical') return searchLexical;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, searchVector, searchLexical };
}

const facts = [
  'Peter runs the home server on a Raspberry Pi',
  'The home server crashed after the power cut',
  'Alice prefers short answers in the morning',
  'The deploy pipeline uses GitHub Actions',
  'Peter bought a new Raspberry Pi for the lab',
];

async function clientOver(store: MemoryStore) {
  const memory = createMemory({
    store,
    embedder: createLocalEmbedder(),
    clock: createFixedClock('2025-11-27T09:00:00Z'),
    ids: createCounterIds(),
    logger: { log() {} },
  });
  await memory.retain(facts);
  return memory;
}

describe('native-or-scan search', () => {
  it('scans a store without searchVector and searchLexical, and gets the same ranking as the native search', async () => {
    const silent = wrapped(createInMemoryStore(), ['searchVector', 'searchLexical']);
    const announced = wrapped(createInMemoryStore());
    expect(searchesNatively(coreStore(silent.store), 'vector')).toBe(false);
    expect(searchesNatively(coreStore(silent.store), 'lexical')).toBe(false);
    expect(searchesNatively(coreStore(announced.store), 'vector')).toBe(true);
    expect(searchesNatively(coreStore(announced.store), 'lexical')).toBe(true);

    const scanned = await clientOver(silent.store);
    const native = await clientOver(announced.store);
    for (const query of ['home server crash', 'Raspberry Pi', 'how does Alice like answers']) {
      const a = await scanned.recall(query);
      const b = await native.recall(query);
      expect(a.results.map((result) => result.memory.id)).toEqual(b.results.map((result) => result.memory.id));
      expect(a.results.length).toBeGreaterThan(0);
    }
    expect(silent.searchVector).not.toHaveBeenCalled();
    expect(silent.searchLexical).not.toHaveBeenCalled();
    expect(announced.searchVector).toHaveBeenCalled();
    expect(announced.searchLexical).toHaveBeenCalled();
    await scanned.close();
    await native.close();
  });

  it('the scan agrees with the store on scores, and uses embeddings it is handed instead of reading them', async () => {
    const base = createInMemoryStore();
    const memory = await clientOver(base);
    const [vector] = await createLocalEmbedder().embed(['Raspberry Pi server']);
    const filter = {};
    const native = await searchVector(coreStore(base), { vector: vector!, filter, limit: 3 });
    const store = coreStore(wrapped(base, ['searchVector', 'searchLexical']).store);
    const scanned = await searchVector(store, { vector: vector!, filter, limit: 3 });
    expect(scanned.map((hit) => hit.id)).toEqual(native.map((hit) => hit.id));
    for (const [index, hit] of scanned.entries()) expect(hit.score).toBeCloseTo(native[index]!.score, 6);

    const loaded = new Map([[native[0]!.id, vector!]]);
    const getEmbeddings = vi.spyOn(base, 'getEmbeddings');
    const fromLoaded = await searchVector(store, { vector: vector!, filter, limit: 3 }, loaded);
    expect(fromLoaded).toEqual([{ id: native[0]!.id, score: expect.closeTo(1, 6) }]);
    expect(getEmbeddings).not.toHaveBeenCalled();

    const lexicalNative = await searchLexical(coreStore(base), { text: 'server', filter, limit: 5 });
    const lexicalScan = await searchLexical(store, { text: 'server', filter, limit: 5 });
    expect(lexicalScan.map((hit) => hit.id).sort()).toEqual(lexicalNative.map((hit) => hit.id).sort());
    await memory.close();
  });
});
