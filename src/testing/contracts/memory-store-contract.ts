import { afterEach, beforeEach, describe, expect } from 'vitest';
import {
  type EmbedderIdentity,
  type LexicalSearchQuery,
  type Memory,
  type MemoryFilter,
  type MemoryOrder,
  type MemoryStore,
  memoryMatches,
  type Scope,
  type SearchHit,
  StoreError,
  type VectorSearchQuery,
} from '../../index.js';
import { changeAtomically } from '../bulk-change.js';
import { day, makeEntity, makeMemory, makeOpinion, makeProcedure, makeSession } from '../records.js';
import { type DerivedStore, derivedStore, type RecordCollection } from '../store-seams.js';
import { axisVector, cosineSimilarity, normalize, unitVector } from '../vectors.js';
import { type ContractSkip, contractTests } from './contract-skips.js';

/**
 * The optional natives of the store port a store has. The tests that need a native it lacks
 * are skipped (their titles say why), and the first test checks that the store's members are
 * exactly what is said here. The optimisations memoir derives when they are absent (`count`,
 * `recordAccess`, `stats`…) need no entry: the contract checks the store's
 * own when present and memoir's derived one when not.
 *
 * @group Testing
 */
export interface StoreContractCapabilities {
  /** `resetEmbeddings()` (default `true`; without it memoir refuses a full reindex). */
  resetEmbeddings?: boolean;
  /** `searchLexical` (default `true`). */
  lexicalSearch?: boolean;
  /** `searchVector` (default `true`). */
  vectorSearch?: boolean;
  /** `check()`, an integrity check that finds a healthy store ok (default `true`). */
  check?: boolean;
  /** `listUnembedded` (default `true`; without it the contract checks memoir's derived listing). */
  listUnembedded?: boolean;
  /** `transaction()` (default `true`; without it memoir serialises the writes and bulk changes need `stageChange`). */
  transaction?: boolean;
  /** `stageChange()` (default `false`). */
  stageChange?: boolean;
}

/**
 * How to run {@link runMemoryStoreContract} against one store.
 *
 * @group Testing
 */
export interface MemoryStoreContractOptions {
  /** The store's name, shown in the suite title. */
  name: string;
  /**
   * A fresh, empty, unopened store; called before every test. The contract opens it with an
   * 8-dimension embedder identity and closes it after the test.
   */
  create: () => Promise<MemoryStore> | MemoryStore;
  /** The optional parts of the port the store offers; each is expected unless `false`. */
  capabilities?: StoreContractCapabilities;
  /**
   * Tests the store cannot pass, each group with the reason; names are test titles as the
   * contract declares them (without the suite prefix). Naming a test that does not exist fails.
   */
  skip?: readonly ContractSkip[];
}

const DIMS = 8;
const EMBEDDER: EmbedderIdentity = { id: 'contract-embedder', dimensions: DIMS };

const idsOf = (items: readonly { id: string }[]): string[] => items.map((item) => item.id);
const sorted = (values: readonly string[]): string[] => [...values].sort();

function lexicalSearch(store: DerivedStore, query: LexicalSearchQuery): Promise<SearchHit[]> {
  if (!store.searchLexical) throw new Error(`${store.name} has no searchLexical; skip this test with a reason`);
  return store.searchLexical(query);
}

function vectorSearch(store: DerivedStore, query: VectorSearchQuery): Promise<SearchHit[]> {
  if (!store.searchVector) throw new Error(`${store.name} has no searchVector; skip this test with a reason`);
  return store.searchVector(query);
}

/** Upsert memories, each with `embed(memory, index)` (a seeded unit vector by default). */
async function seed(
  store: DerivedStore,
  memories: readonly Memory[],
  embed: (memory: Memory, index: number) => Float32Array | null = (_, index) => unitVector(DIMS, index + 1),
): Promise<void> {
  await store.upsertMemories(memories.map((memory, index) => ({ memory, embedding: embed(memory, index) })));
}

/** Resolve to the rejection reason, failing when the promise resolves or rejects with something else. */
async function expectStoreError(promise: Promise<unknown>): Promise<StoreError> {
  const outcome = await promise.then(
    () => ({ rejected: false as const }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!outcome.rejected) throw new Error('expected a rejection with a StoreError, but the call resolved');
  expect(StoreError.isInstance(outcome.error), `expected a StoreError, got ${String(outcome.error)}`).toBe(true);
  return outcome.error as StoreError;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

// Every filter test runs against this set. Timeline (days after 2025-01-01):
//        occurredAt  validFrom  validTo
//   f1        0          0        —
//   f2       31         31       59
//   f3       59         59        —
//   f4       90         14       45
//   f5      120        120        —
//   f6      150          0       31
const FILTER_DATASET: readonly Memory[] = [
  makeMemory({
    id: 'f1',
    content: 'marker alpha',
    scope: { userId: 'alice', agentId: 'a1', namespace: 'work' },
    kind: 'world',
    category: 'profile',
    entities: ['Peter'],
    sessionId: 's1',
    occurredAt: day(0),
    validFrom: day(0),
    fingerprint: 'fp1',
    bookmarked: true,
  }),
  makeMemory({
    id: 'f2',
    content: 'marker bravo',
    scope: { userId: 'alice', agentId: 'a2' },
    kind: 'experience',
    category: 'events',
    entities: ['peter', 'Castle'],
    sessionId: 's2',
    occurredAt: day(31),
    validFrom: day(31),
    validTo: day(59),
    fingerprint: 'fp2',
  }),
  makeMemory({
    id: 'f3',
    content: 'marker charlie',
    scope: { userId: 'bob', agentId: 'a1' },
    kind: 'opinion',
    category: 'preferences',
    entities: ['PETER'],
    sessionId: 's1',
    occurredAt: day(59),
    validFrom: day(59),
    fingerprint: 'fp3',
  }),
  makeMemory({
    id: 'f4',
    content: 'marker delta',
    scope: { agentId: 'a1' },
    kind: 'observation',
    category: 'custom-cat',
    entities: [],
    occurredAt: day(90),
    validFrom: day(14),
    validTo: day(45),
    fingerprint: 'shared',
  }),
  makeMemory({
    id: 'f5',
    content: 'marker echo',
    scope: {},
    kind: 'world',
    category: 'note',
    entities: ['Castle'],
    occurredAt: day(120),
    validFrom: day(120),
    fingerprint: 'shared',
    bookmarked: true,
  }),
  makeMemory({
    id: 'f6',
    content: 'marker foxtrot',
    scope: { namespace: 'work' },
    kind: 'experience',
    category: 'note',
    entities: ['Anna'],
    sessionId: 's3',
    occurredAt: day(150),
    validFrom: day(0),
    validTo: day(31),
    fingerprint: 'fp6',
  }),
];

// Five memories whose sort keys are in different orders, each key with one tie.
//              occurredAt createdAt updatedAt importance
//   a              3          1         5        0.2
//   b              1          4         2        0.9
//   c              2          3         2        0.5
//   d              2          5         1        0.2
//   e              5          4         3        0.7
const ORDER_ROWS: ReadonlyArray<[id: string, occurred: number, created: number, updated: number, importance: number]> =
  [
    ['e', 5, 4, 3, 0.7],
    ['c', 2, 3, 2, 0.5],
    ['a', 3, 1, 5, 0.2],
    ['d', 2, 5, 1, 0.2],
    ['b', 1, 4, 2, 0.9],
  ];
const ORDER_DATASET: readonly Memory[] = ORDER_ROWS.map(([id, occurred, created, updated, importance]) =>
  makeMemory({
    id,
    occurredAt: day(occurred),
    createdAt: day(created),
    updatedAt: day(updated),
    importance,
  }),
);

const EXPECTED_ORDER: Record<MemoryOrder, { asc: string[]; desc: string[] }> = {
  occurredAt: { asc: ['b', 'c', 'd', 'a', 'e'], desc: ['e', 'a', 'c', 'd', 'b'] },
  createdAt: { asc: ['a', 'c', 'b', 'e', 'd'], desc: ['d', 'b', 'e', 'c', 'a'] },
  updatedAt: { asc: ['d', 'b', 'c', 'e', 'a'], desc: ['a', 'e', 'b', 'c', 'd'] },
  importance: { asc: ['a', 'd', 'c', 'e', 'b'], desc: ['b', 'e', 'c', 'a', 'd'] },
};

/**
 * Declare the {@link MemoryStore} contract for one store: about 100 vitest tests of what memoir
 * relies on — exact round trips, every filter field, ordering and paging, scope isolation,
 * lexical and vector search, record collections, transactions, bulk changes, stats and close.
 * Call it at the top level of a vitest test file (it declares `describe` blocks); every test
 * gets a fresh store from `create()`, opened with an 8-dimension embedder identity, and
 * closes it afterwards.
 *
 * @example
 * ```ts
 * import { runMemoryStoreContract } from 'memoir/testing/contracts';
 * import { createMyStore } from '../src/my-store.js';
 *
 * runMemoryStoreContract({
 *   name: 'my store',
 *   create: () => createMyStore(),
 *   capabilities: { lexicalSearch: false },
 * });
 * ```
 *
 * @group Testing
 */
export function runMemoryStoreContract(options: MemoryStoreContractOptions): void {
  const offers: Required<StoreContractCapabilities> = {
    lexicalSearch: true,
    vectorSearch: true,
    check: true,
    listUnembedded: true,
    resetEmbeddings: true,
    transaction: true,
    stageChange: false,
    ...options.capabilities,
  };
  // What each optional part is called in a skipped test's title; undefined when offered.
  const missing = (part: keyof StoreContractCapabilities, label: string): string | undefined =>
    offers[part] ? undefined : label;
  const LEXICAL = missing('lexicalSearch', 'lexical search (searchLexical)');
  const VECTOR = missing('vectorSearch', 'vector search (searchVector)');
  const CHECK = missing('check', 'integrity check (check)');
  const RESET = missing('resetEmbeddings', 'resetEmbeddings');
  // Bulk changes need a transaction() undone on failure or a stageChange(); memoir refuses them otherwise.
  const BULK =
    offers.transaction || offers.stageChange ? undefined : 'transaction() or stageChange(), which bulk changes need';
  const { test, checkSkipList } = contractTests(`MemoryStore contract: ${options.name}`, options.skip);
  // The store as memoir's core sees it: the port under the names the tests call, and memoir's
  // derived members where the store has no native one, so the contract checks those too.
  let store: DerivedStore;

  /** Check one filter against every operation that takes one. */
  async function expectFilter(filter: MemoryFilter, expected: readonly string[]): Promise<void> {
    const label = JSON.stringify(filter);
    const want = sorted(expected);
    expect(sorted(idsOf(FILTER_DATASET.filter((memory) => memoryMatches(memory, filter)))), `fixture ${label}`).toEqual(
      want,
    );
    expect(sorted(idsOf(await store.listMemories({ filter }))), `listMemories ${label}`).toEqual(want);
    expect(await store.countMemories(filter), `countMemories ${label}`).toBe(want.length);
    if (store.capabilities.lexicalSearch) {
      const hits = await lexicalSearch(store, { text: 'marker', filter, limit: 100 });
      expect(sorted(idsOf(hits)), `searchLexical ${label}`).toEqual(want);
    }
    if (store.capabilities.vectorSearch) {
      const hits = await vectorSearch(store, { vector: unitVector(DIMS, 999), filter, limit: 100 });
      expect(sorted(idsOf(hits)), `searchVector ${label}`).toEqual(want);
    }
  }

  function recordCollectionTests<T extends { id: string; scope: Scope }>(
    label: string,
    pick: (store: DerivedStore) => RecordCollection<T>,
    make: (overrides: { id: string; scope?: Scope }) => T,
    change: (record: T) => T,
  ): void {
    test(`${label}: upsert then get in requested order, missing ids left out`, async () => {
      const collection = pick(store);
      const [x, y, z] = [make({ id: 'x' }), make({ id: 'y' }), make({ id: 'z' })];
      await collection.upsert([x, y, z]);
      expect(await collection.get(['z', 'missing', 'x', 'y'])).toEqual([z, x, y]);
      expect(await collection.get([])).toEqual([]);
    });

    test(`${label}: upsert replaces by id`, async () => {
      const collection = pick(store);
      const original = make({ id: 'x' });
      await collection.upsert([original]);
      const replacement = change(original);
      await collection.upsert([replacement]);
      expect(await collection.get(['x'])).toEqual([replacement]);
      expect(await collection.list()).toHaveLength(1);
    });

    test(`${label}: delete returns the count and ignores unknown ids`, async () => {
      const collection = pick(store);
      await collection.upsert([make({ id: 'x' }), make({ id: 'y' })]);
      expect(await collection.delete(['x', 'missing'])).toBe(1);
      expect(await collection.delete(['x'])).toBe(0);
      expect(await collection.delete([])).toBe(0);
      expect(idsOf(await collection.list())).toEqual(['y']);
    });

    test(`${label}: list filters by scope, orders by id and pages`, async () => {
      const collection = pick(store);
      await collection.upsert([
        make({ id: 'r3', scope: { userId: 'alice', agentId: 'a1' } }),
        make({ id: 'r1', scope: { userId: 'alice' } }),
        make({ id: 'r4', scope: { userId: 'bob', agentId: 'a1' } }),
        make({ id: 'r2', scope: { agentId: 'a1' } }),
        make({ id: 'r5', scope: {} }),
      ]);
      expect(idsOf(await collection.list())).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
      expect(idsOf(await collection.list({ scope: {} }))).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
      expect(idsOf(await collection.list({ scope: { userId: 'alice' } }))).toEqual(['r1', 'r3']);
      expect(idsOf(await collection.list({ scope: { userId: 'bob' } }))).toEqual(['r4']);
      expect(idsOf(await collection.list({ scope: { agentId: 'a1' } }))).toEqual(['r2', 'r3', 'r4']);
      expect(idsOf(await collection.list({ scope: { userId: 'alice', agentId: 'a1' } }))).toEqual(['r3']);
      expect(idsOf(await collection.list({ scope: { userId: 'carol' } }))).toEqual([]);
      expect(idsOf(await collection.list({ limit: 2 }))).toEqual(['r1', 'r2']);
      expect(idsOf(await collection.list({ limit: 2, offset: 2 }))).toEqual(['r3', 'r4']);
      expect(idsOf(await collection.list({ offset: 4 }))).toEqual(['r5']);
      expect(idsOf(await collection.list({ scope: { agentId: 'a1' }, limit: 1, offset: 1 }))).toEqual(['r3']);
    });

    test(`${label}: returned records are copies`, async () => {
      const collection = pick(store);
      const original = make({ id: 'x', scope: { userId: 'alice' } });
      const input = structuredClone(original);
      await collection.upsert([input]);
      input.scope.userId = 'mallory';
      const [first] = await collection.get(['x']);
      first!.scope.userId = 'mallory';
      const [listed] = await collection.list();
      listed!.scope.userId = 'mallory';
      expect(await collection.get(['x'])).toEqual([original]);
    });
  }

  describe(`MemoryStore contract: ${options.name}`, () => {
    beforeEach(async () => {
      store = derivedStore(await options.create());
      await store.open(EMBEDDER);
    });

    afterEach(async () => {
      await store.close();
    });

    describe('basics', () => {
      test('declares specificationVersion v2, a name, and the optional natives it was said to have', async () => {
        const port = store.port;
        expect(port.specificationVersion).toBe('v2');
        expect(port.name.length).toBeGreaterThan(0);
        for (const required of ['open', 'close', 'get', 'put', 'delete', 'list', 'getEmbeddings'] as const) {
          expect(typeof port[required], `${required}()`).toBe('function');
        }
        // Presence is the whole declaration: what the contract was told is what the store has.
        expect(typeof port.searchLexical === 'function', 'searchLexical()').toBe(offers.lexicalSearch);
        expect(typeof port.searchVector === 'function', 'searchVector()').toBe(offers.vectorSearch);
        expect(typeof port.check === 'function', 'check()').toBe(offers.check);
        expect(typeof port.listUnembedded === 'function', 'listUnembedded()').toBe(offers.listUnembedded);
        expect(typeof port.transaction === 'function', 'transaction()').toBe(offers.transaction);
        expect(typeof port.resetEmbeddings === 'function', 'resetEmbeddings()').toBe(offers.resetEmbeddings);
        expect(typeof port.stageChange === 'function', 'stageChange()').toBe(offers.stageChange);
      });

      test('declares only guarantees, each a known value; transactions none without transaction()', async () => {
        const declared = store.port.capabilities;
        const known = ['persistent', 'transactions', 'crossProcess'];
        expect(
          Object.keys(declared).filter((key) => !known.includes(key)),
          'flags besides the guarantees',
        ).toEqual([]);
        if (declared.transactions !== undefined)
          expect(['atomic', 'per-table', 'none']).toContain(declared.transactions);
        if (declared.crossProcess !== undefined) {
          expect(['serialised', 'per-write', 'none']).toContain(declared.crossProcess);
        }
        const resolved = store.capabilities;
        expect(resolved.transactions).toBe(offers.transaction ? (declared.transactions ?? 'none') : 'none');
        expect(resolved.crossProcess).toBe(declared.crossProcess ?? 'none');
      });

      test('a fresh store is empty', async () => {
        expect(await store.listMemories()).toEqual([]);
        expect(await store.countMemories()).toBe(0);
        const stats = await store.stats();
        expect(stats).toMatchObject({ memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 });
      });
    });

    describe('text', () => {
      // UTF-8 columns cannot hold a lone surrogate; whatever a store does inside, the text
      // comes back exactly, filters still find it, and two such texts never become one.
      test('keeps lone surrogates, the escape mark and valid pairs exactly, and filters on them', async () => {
        const odd = ['a\uD800b', '\uDC00', '😀', 'x\uFDD0D800y', '\uFDD0FDD0', 'end\uDBFF'];
        const memories = odd.map((text, index) =>
          makeMemory({
            id: `odd-${index}`,
            content: `content ${text}`,
            abstract: `abstract ${text}`,
            overview: `overview ${text}`,
            context: `context ${text}`,
            category: `category ${text}`,
            entities: [`Entity ${text}`],
            sessionId: `session ${text}`,
            invalidationReason: `reason ${text}`,
            source: { file: `${text}.md`, messageId: text },
            metadata: { [text]: text },
          }),
        );
        await seed(store, memories);
        expect(await store.getMemories(idsOf(memories))).toEqual(memories);
        for (const memory of memories) {
          const filters: MemoryFilter[] = [
            { categories: [memory.category] },
            { sessionId: memory.sessionId! },
            { entities: [memory.entities[0]!] },
          ];
          for (const filter of filters) expect(idsOf(await store.listMemories({ filter }))).toEqual([memory.id]);
        }
        const sessions = odd.map((text) => makeSession({ id: `s/${text}`, summary: text }));
        await store.sessions.upsert(sessions);
        expect(await store.sessions.get(idsOf(sessions))).toEqual(sessions);
        expect(await store.sessions.delete([sessions[0]!.id])).toBe(1);
        expect(idsOf(await store.sessions.get(idsOf(sessions)))).toEqual(idsOf(sessions.slice(1)));
      });
    });

    describe('open', () => {
      test('open records the embedder identity and accepts it again', async () => {
        await seed(store, [makeMemory({ id: 'a' })]);
        await store.open(EMBEDDER);
        await store.open({ ...EMBEDDER });
        await expectStoreError(
          store.upsertMemories([{ memory: makeMemory({ id: 'b' }), embedding: unitVector(DIMS + 1, 1) }]),
        );
      });

      test('open refuses a different embedder id once vectors are stored', async () => {
        await seed(store, [makeMemory({ id: 'a' })]);
        const error = await expectStoreError(store.open({ id: 'another-embedder', dimensions: DIMS }));
        expect(error.suggestion ?? '').toMatch(/reindex/i);
        expect(await store.countMemories()).toBe(1);
      });

      test('open refuses different dimensions once vectors are stored', async () => {
        await seed(store, [makeMemory({ id: 'a' })]);
        const error = await expectStoreError(store.open({ id: EMBEDDER.id, dimensions: DIMS * 2 }));
        expect(error.suggestion ?? '').toMatch(/reindex/i);
      });

      test('open accepts a different embedder while no vectors are stored', async () => {
        await seed(store, [makeMemory({ id: 'a' })], () => null);
        await store.open({ id: 'another-embedder', dimensions: DIMS * 2 });
        await store.upsertMemories([{ memory: makeMemory({ id: 'b' }), embedding: unitVector(DIMS * 2, 1) }]);
        expect((await store.getEmbeddings(['b'])).get('b')).toHaveLength(DIMS * 2);
      });

      test(
        'resetEmbeddings drops every vector, keeps memories and accepts the new embedder',
        async () => {
          await seed(store, [makeMemory({ id: 'a' }), makeMemory({ id: 'b' })]);
          const next = { id: 'reindexed-embedder', dimensions: DIMS * 2 };
          await store.resetEmbeddings(next);
          expect((await store.getEmbeddings(['a', 'b'])).size).toBe(0);
          expect(await store.countMemories()).toBe(2);
          await store.open(next);
          const vector = unitVector(DIMS * 2, 3);
          await store.upsertMemories([{ memory: (await store.getMemories(['a']))[0]!, embedding: vector }]);
          const hits = await vectorSearch(store, { vector, limit: 5 });
          expect(idsOf(hits)).toEqual(['a']);
          await expectStoreError(store.open(EMBEDDER));
        },
        VECTOR && RESET ? `${VECTOR} and ${RESET}` : (VECTOR ?? RESET),
      );
    });

    describe('memories: CRUD', () => {
      test('upsert then get returns memories in the requested order', async () => {
        const memories = ['a', 'b', 'c'].map((id) => makeMemory({ id }));
        await seed(store, memories);
        expect(idsOf(await store.getMemories(['c', 'a', 'b']))).toEqual(['c', 'a', 'b']);
        expect(await store.getMemories(['b'])).toEqual([memories[1]]);
      });

      test('get leaves out missing ids', async () => {
        await seed(store, [makeMemory({ id: 'a' }), makeMemory({ id: 'b' })]);
        expect(idsOf(await store.getMemories(['missing', 'b', 'other', 'a']))).toEqual(['b', 'a']);
        expect(await store.getMemories([])).toEqual([]);
        expect(await store.getMemories(['missing'])).toEqual([]);
      });

      test('a memory round-trips every field exactly', async () => {
        const memory = makeMemory({
          id: 'full',
          kind: 'opinion',
          category: 'my-custom-category',
          abstract: 'Peter likes tea.',
          overview: '- likes: tea\n- dislikes: coffee',
          content: 'Peter said he likes green tea and dislikes coffee.',
          entities: ['Peter', 'Tea House'],
          scope: { agentId: 'agent-7', userId: 'user-9', namespace: 'kitchen' },
          sessionId: 'session_20251127_101500_k3f9',
          source: { file: 'memory/2025-11-27.md', line: 12, url: 'https://example.com/x', messageId: 'msg-4' },
          occurredAt: '2025-11-27T10:15:00.000Z',
          createdAt: '2025-11-27T10:16:00.000Z',
          updatedAt: '2025-11-28T08:00:00.000Z',
          validFrom: '2025-11-27T10:15:00.000Z',
          validTo: '2025-12-01T00:00:00.000Z',
          invalidationReason: 'Peter switched to coffee',
          supersededBy: 'mem_next',
          importance: 0.875,
          bookmarked: true,
          accessCount: 42,
          lastAccessedAt: '2025-11-30T09:00:00.000Z',
          fingerprint: 'sha256:abc123',
          metadata: { nested: { list: [1, 'two', null, true, { deep: -0.5 }] }, empty: {}, flag: false },
        });
        await seed(store, [memory]);
        expect(await store.getMemories(['full'])).toEqual([memory]);
        expect(await store.listMemories()).toEqual([memory]);
      });

      test('upsert replaces by id, embedding included', async () => {
        await seed(store, [makeMemory({ id: 'a', content: 'first version' })], () => axisVector(DIMS, 0));
        const replacement = makeMemory({ id: 'a', content: 'second version', importance: 0.9 });
        await seed(store, [replacement], () => axisVector(DIMS, 1));
        expect(await store.getMemories(['a'])).toEqual([replacement]);
        expect(await store.countMemories()).toBe(1);
        expect(Array.from((await store.getEmbeddings(['a'])).get('a') ?? [])).toEqual(Array.from(axisVector(DIMS, 1)));
        await seed(store, [replacement], () => null);
        expect((await store.getEmbeddings(['a'])).size).toBe(0);
      });

      test('listUnembedded pages through memories without a vector, in id order, within the filter', async () => {
        await seed(
          store,
          ['e1', 'n3', 'n1', 'n4', 'n2'].map((id) =>
            makeMemory({ id, scope: id === 'n4' ? { userId: 'other' } : { userId: 'me' } }),
          ),
          (memory) => (memory.id.startsWith('e') ? axisVector(DIMS, 0) : null),
        );
        const mine = { scope: { userId: 'me' } };
        expect(idsOf(await store.listUnembedded({ filter: mine, limit: 2 }))).toEqual(['n1', 'n2']);
        expect(idsOf(await store.listUnembedded({ filter: mine, limit: 2, after: 'n2' }))).toEqual(['n3']);
        expect(idsOf(await store.listUnembedded({ limit: 10 }))).toEqual(['n1', 'n2', 'n3', 'n4']);
        await seed(store, [makeMemory({ id: 'n1', scope: { userId: 'me' } })], () => axisVector(DIMS, 1));
        expect(idsOf(await store.listUnembedded({ filter: mine, limit: 10 }))).toEqual(['n2', 'n3']);
      });

      test('delete returns the count and ignores unknown ids', async () => {
        await seed(
          store,
          ['a', 'b', 'c'].map((id) => makeMemory({ id })),
        );
        expect(await store.deleteMemories(['a', 'missing', 'c'])).toBe(2);
        expect(await store.deleteMemories(['a'])).toBe(0);
        expect(await store.deleteMemories([])).toBe(0);
        expect(idsOf(await store.listMemories())).toEqual(['b']);
        expect((await store.getEmbeddings(['a', 'b', 'c'])).size).toBe(1);
      });

      test('a batch of 1,000 memories in one upsert', async () => {
        const memories = Array.from({ length: 1000 }, (_, i) =>
          makeMemory({ id: `bulk-${String(i).padStart(4, '0')}`, content: `bulk memory number ${i} token${i}` }),
        );
        await seed(store, memories);
        expect(await store.countMemories()).toBe(1000);
        expect(await store.getMemories(['bulk-0999', 'bulk-0000', 'bulk-0500'])).toEqual([
          memories[999],
          memories[0],
          memories[500],
        ]);
        expect((await store.getEmbeddings(idsOf(memories))).size).toBe(1000);
        if (store.capabilities.lexicalSearch) {
          expect(idsOf(await lexicalSearch(store, { text: 'token737', limit: 5 }))).toEqual(['bulk-0737']);
        }
      });

      test('upsert rejects an embedding whose length differs from the opened dimensions', async () => {
        await expectStoreError(
          store.upsertMemories([{ memory: makeMemory({ id: 'a' }), embedding: unitVector(DIMS - 1, 1) }]),
        );
        expect(await store.countMemories()).toBe(0);
      });

      test('a batch with one bad-dimension embedding leaves nothing written', async () => {
        const existing = makeMemory({ id: 'existing', content: 'untouched original text' });
        await seed(store, [existing]);
        const batch = Array.from({ length: 6 }, (_, i) => ({
          memory: makeMemory({ id: `new-${i}`, content: `freshly written ${i}` }),
          embedding: unitVector(DIMS, i + 10) as Float32Array | null,
        }));
        batch.splice(3, 0, { memory: makeMemory({ id: 'existing', content: 'overwritten text' }), embedding: null });
        batch.splice(5, 0, { memory: makeMemory({ id: 'bad' }), embedding: unitVector(DIMS + 3, 1) });
        await expectStoreError(store.upsertMemories(batch));
        expect(idsOf(await store.listMemories())).toEqual(['existing']);
        expect(await store.getMemories(['existing'])).toEqual([existing]);
        expect((await store.getEmbeddings(['existing'])).size).toBe(1);
        if (store.capabilities.lexicalSearch) {
          expect(await lexicalSearch(store, { text: 'freshly overwritten', limit: 10 })).toEqual([]);
        }
      });

      test('returned objects are copies', async () => {
        const original = makeMemory({ id: 'a', entities: ['Peter'], metadata: { nested: { n: 1 } } });
        const input = structuredClone(original);
        const vector = unitVector(DIMS, 7);
        const inputVector = new Float32Array(vector);
        await store.upsertMemories([{ memory: input, embedding: inputVector }]);
        input.content = 'mutated input';
        input.entities.push('Mallory');
        inputVector[0] = 42;

        const [got] = await store.getMemories(['a']);
        got!.content = 'mutated output';
        got!.entities.push('Eve');
        (got!.metadata.nested as { n: number }).n = 2;
        const [listed] = await store.listMemories();
        listed!.scope.userId = 'mallory';
        const embedding = (await store.getEmbeddings(['a'])).get('a')!;
        embedding[1] = 42;

        expect(await store.getMemories(['a'])).toEqual([original]);
        expect(Array.from((await store.getEmbeddings(['a'])).get('a')!)).toEqual(Array.from(vector));
      });

      test('getEmbeddings round-trips vectors exactly and leaves out memories without one', async () => {
        const vectors = [
          unitVector(DIMS, 1),
          unitVector(DIMS, 2),
          new Float32Array([1e-30, -0, 3.5, -2, 0, 0, 0.1, 1]),
        ];
        await seed(
          store,
          ['a', 'b', 'c', 'none'].map((id) => makeMemory({ id })),
          (_, i) => vectors[i] ?? null,
        );
        const found = await store.getEmbeddings(['c', 'none', 'missing', 'a', 'b']);
        expect(sorted([...found.keys()])).toEqual(['a', 'b', 'c']);
        for (const [i, id] of ['a', 'b', 'c'].entries()) {
          const got = found.get(id)!;
          expect(got).toBeInstanceOf(Float32Array);
          expect(Array.from(got)).toEqual(Array.from(vectors[i]!));
        }
        expect((await store.getEmbeddings([])).size).toBe(0);
      });

      test('recordAccess counts accesses without touching updatedAt', async () => {
        const memory = makeMemory({ id: 'a', updatedAt: day(1), accessCount: 2, content: 'accessed often' });
        const other = makeMemory({ id: 'b' });
        await seed(store, [memory, other]);
        await store.recordAccess(['a', 'missing'], day(10));
        expect(await store.getMemories(['a'])).toEqual([{ ...memory, accessCount: 3, lastAccessedAt: day(10) }]);
        await store.recordAccess(['a'], day(11));
        expect(await store.getMemories(['a', 'b'])).toEqual([
          { ...memory, accessCount: 4, lastAccessedAt: day(11) },
          other,
        ]);
        await store.recordAccess([], day(12));
        if (store.capabilities.lexicalSearch) {
          expect(idsOf(await lexicalSearch(store, { text: 'accessed', limit: 5 }))).toEqual(['a']);
        }
      });

      test('invalidated memories stay listed unless validAt is given', async () => {
        const current = makeMemory({ id: 'current', content: 'Peter drinks coffee', validFrom: day(5) });
        const old = makeMemory({
          id: 'old',
          content: 'Peter drinks tea',
          validFrom: day(0),
          validTo: day(5),
          invalidationReason: 'corrected',
          supersededBy: 'current',
        });
        await seed(store, [current, old]);
        expect(sorted(idsOf(await store.listMemories()))).toEqual(['current', 'old']);
        expect(await store.countMemories()).toBe(2);
        expect(await store.getMemories(['old'])).toEqual([old]);
        expect(idsOf(await store.listMemories({ filter: { validAt: day(10) } }))).toEqual(['current']);
        expect(idsOf(await store.listMemories({ filter: { validAt: day(3) } }))).toEqual(['old']);
        if (store.capabilities.lexicalSearch) {
          expect(sorted(idsOf(await lexicalSearch(store, { text: 'Peter drinks', limit: 5 })))).toEqual([
            'current',
            'old',
          ]);
        }
      });
    });

    describe('filters', () => {
      beforeEach(async () => {
        await seed(store, FILTER_DATASET);
      });

      test('filter: none matches everything', async () => {
        await expectFilter({}, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
      });

      test('filter: scope', async () => {
        await expectFilter({ scope: {} }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
        await expectFilter({ scope: { userId: 'alice' } }, ['f1', 'f2']);
        await expectFilter({ scope: { userId: 'bob' } }, ['f3']);
        await expectFilter({ scope: { agentId: 'a1' } }, ['f1', 'f3', 'f4']);
        await expectFilter({ scope: { userId: 'alice', agentId: 'a1' } }, ['f1']);
        await expectFilter({ scope: { namespace: 'work' } }, ['f1', 'f6']);
        await expectFilter({ scope: { userId: 'alice', agentId: 'a1', namespace: 'home' } }, []);
        await expectFilter({ scope: { userId: 'carol' } }, []);
      });

      test('filter: ids', async () => {
        await expectFilter({ ids: ['f2', 'f5', 'missing'] }, ['f2', 'f5']);
        await expectFilter({ ids: ['f3'] }, ['f3']);
        await expectFilter({ ids: [] }, []);
      });

      test('filter: kinds', async () => {
        await expectFilter({ kinds: ['world'] }, ['f1', 'f5']);
        await expectFilter({ kinds: ['experience', 'opinion'] }, ['f2', 'f3', 'f6']);
        await expectFilter({ kinds: ['observation'] }, ['f4']);
        await expectFilter({ kinds: [] }, []);
      });

      test('filter: categories (exact match)', async () => {
        await expectFilter({ categories: ['profile', 'custom-cat'] }, ['f1', 'f4']);
        await expectFilter({ categories: ['note'] }, ['f5', 'f6']);
        await expectFilter({ categories: ['Profile'] }, []);
        await expectFilter({ categories: [] }, []);
      });

      test('filter: entities (case-insensitive)', async () => {
        await expectFilter({ entities: ['peter'] }, ['f1', 'f2', 'f3']);
        await expectFilter({ entities: ['CASTLE'] }, ['f2', 'f5']);
        await expectFilter({ entities: ['anna', 'castle'] }, ['f2', 'f5', 'f6']);
        await expectFilter({ entities: ['nobody'] }, []);
      });

      test('filter: sessionId', async () => {
        await expectFilter({ sessionId: 's1' }, ['f1', 'f3']);
        await expectFilter({ sessionId: 's3' }, ['f6']);
        await expectFilter({ sessionId: 's9' }, []);
      });

      test('filter: since (inclusive)', async () => {
        await expectFilter({ since: day(59) }, ['f3', 'f4', 'f5', 'f6']);
        await expectFilter({ since: day(0) }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
        await expectFilter({ since: day(151) }, []);
      });

      test('filter: until (inclusive)', async () => {
        await expectFilter({ until: day(59) }, ['f1', 'f2', 'f3']);
        await expectFilter({ until: day(0) }, ['f1']);
        await expectFilter({ since: day(31), until: day(90) }, ['f2', 'f3', 'f4']);
        await expectFilter({ since: day(60), until: day(89) }, []);
      });

      test('filter: validAt (validFrom inclusive, validTo exclusive)', async () => {
        await expectFilter({ validAt: day(0) }, ['f1', 'f6']);
        await expectFilter({ validAt: day(14) }, ['f1', 'f4', 'f6']);
        await expectFilter({ validAt: day(31) }, ['f1', 'f2', 'f4']);
        await expectFilter({ validAt: day(45) }, ['f1', 'f2']);
        await expectFilter({ validAt: day(59) }, ['f1', 'f3']);
        await expectFilter({ validAt: day(200) }, ['f1', 'f3', 'f5']);
        await expectFilter({ validAt: day(-1) }, []);
      });

      test('filter: fingerprints', async () => {
        await expectFilter({ fingerprints: ['shared'] }, ['f4', 'f5']);
        await expectFilter({ fingerprints: ['fp1', 'nope'] }, ['f1']);
        await expectFilter({ fingerprints: [] }, []);
      });

      test('filter: bookmarked', async () => {
        await expectFilter({ bookmarked: true }, ['f1', 'f5']);
        await expectFilter({ bookmarked: false }, ['f2', 'f3', 'f4', 'f6']);
      });

      test('filter: fields combine with AND', async () => {
        await expectFilter({ scope: { agentId: 'a1' }, kinds: ['world', 'opinion'], validAt: day(60) }, ['f1', 'f3']);
        await expectFilter({ scope: { agentId: 'a1' }, kinds: ['world', 'opinion'], bookmarked: true }, ['f1']);
        await expectFilter({ entities: ['peter'], sessionId: 's1', since: day(1) }, ['f3']);
        await expectFilter({ ids: ['f1', 'f2'], categories: ['events'] }, ['f2']);
      });
    });

    describe('scope isolation', () => {
      test("scope isolation: alice's memories never reach a query for bob", async () => {
        const shared = 'secret plans for the garden party';
        const aliceVector = unitVector(DIMS, 1);
        const memories = [
          makeMemory({ id: 'alice-1', content: shared, scope: { userId: 'alice' }, entities: ['Garden'] }),
          makeMemory({ id: 'alice-2', content: shared, scope: { userId: 'alice', agentId: 'helper' } }),
          makeMemory({ id: 'bob-1', content: shared, scope: { userId: 'bob' }, entities: ['Garden'] }),
          makeMemory({ id: 'nobody-1', content: shared, scope: { agentId: 'helper' } }),
        ];
        await seed(store, memories, (memory) => (memory.id === 'bob-1' ? unitVector(DIMS, 2) : aliceVector));
        const bob: MemoryFilter = { scope: { userId: 'bob' } };
        const filters: MemoryFilter[] = [
          bob,
          { ...bob, ids: ['alice-1', 'alice-2', 'bob-1'] },
          { ...bob, entities: ['garden'] },
          { ...bob, fingerprints: memories.map((memory) => memory.fingerprint) },
        ];
        for (const filter of filters) {
          expect(idsOf(await store.listMemories({ filter }))).toEqual(['bob-1']);
          expect(await store.countMemories(filter)).toBe(1);
          if (store.capabilities.lexicalSearch) {
            expect(idsOf(await lexicalSearch(store, { text: shared, filter, limit: 10 }))).toEqual(['bob-1']);
          }
          if (store.capabilities.vectorSearch) {
            expect(idsOf(await vectorSearch(store, { vector: aliceVector, filter, limit: 10 }))).toEqual(['bob-1']);
          }
        }
        expect(await store.countMemories({ scope: { userId: 'carol' } })).toBe(0);
      });

      test('scope isolation: partial scope filters match on the named fields only', async () => {
        const memories = [
          makeMemory({ id: 'alice-helper', content: 'marker', scope: { userId: 'alice', agentId: 'helper' } }),
          makeMemory({
            id: 'bob-helper',
            content: 'marker',
            scope: { userId: 'bob', agentId: 'helper', namespace: 'n' },
          }),
          makeMemory({ id: 'helper-only', content: 'marker', scope: { agentId: 'helper' } }),
          makeMemory({ id: 'alice-other', content: 'marker', scope: { userId: 'alice', agentId: 'other' } }),
        ];
        await seed(store, memories);
        const check = async (scope: Scope, expected: string[]): Promise<void> => {
          expect(sorted(idsOf(await store.listMemories({ filter: { scope } }))), JSON.stringify(scope)).toEqual(
            expected,
          );
          expect(await store.countMemories({ scope })).toBe(expected.length);
          if (store.capabilities.lexicalSearch) {
            const hits = await lexicalSearch(store, { text: 'marker', filter: { scope }, limit: 10 });
            expect(sorted(idsOf(hits))).toEqual(expected);
          }
          if (store.capabilities.vectorSearch) {
            const hits = await vectorSearch(store, { vector: unitVector(DIMS, 5), filter: { scope }, limit: 10 });
            expect(sorted(idsOf(hits))).toEqual(expected);
          }
        };
        await check({ agentId: 'helper' }, ['alice-helper', 'bob-helper', 'helper-only']);
        await check({ userId: 'alice' }, ['alice-helper', 'alice-other']);
        await check({ userId: 'alice', agentId: 'helper' }, ['alice-helper']);
        await check({ namespace: 'n' }, ['bob-helper']);
        await check({ userId: 'alice', namespace: 'n' }, []);
        await check({ userId: 'bob', agentId: 'other' }, []);
      });

      test('scope isolation: record collections', async () => {
        await store.opinions.upsert([
          makeOpinion({ id: 'o-alice', scope: { userId: 'alice' } }),
          makeOpinion({ id: 'o-bob', scope: { userId: 'bob' } }),
        ]);
        await store.entities.upsert([
          makeEntity({ id: 'alice:peter', scope: { userId: 'alice' } }),
          makeEntity({ id: 'bob:peter', scope: { userId: 'bob' } }),
        ]);
        expect(idsOf(await store.opinions.list({ scope: { userId: 'bob' } }))).toEqual(['o-bob']);
        expect(idsOf(await store.entities.list({ scope: { userId: 'bob' } }))).toEqual(['bob:peter']);
      });
    });

    describe('listMemories ordering', () => {
      beforeEach(async () => {
        await seed(store, ORDER_DATASET);
      });

      for (const orderBy of Object.keys(EXPECTED_ORDER) as MemoryOrder[]) {
        for (const direction of ['asc', 'desc'] as const) {
          test(`listMemories orders by ${orderBy} ${direction}, ties by id`, async () => {
            expect(idsOf(await store.listMemories({ orderBy, direction }))).toEqual(EXPECTED_ORDER[orderBy][direction]);
          });
        }
      }

      test('listMemories defaults to createdAt desc', async () => {
        expect(idsOf(await store.listMemories())).toEqual(EXPECTED_ORDER.createdAt.desc);
        expect(idsOf(await store.listMemories({ orderBy: 'importance' }))).toEqual(EXPECTED_ORDER.importance.desc);
        expect(idsOf(await store.listMemories({ direction: 'asc' }))).toEqual(EXPECTED_ORDER.createdAt.asc);
      });

      test('listMemories pages with limit and offset', async () => {
        const list = (limit: number | undefined, offset: number | undefined, filter?: MemoryFilter) =>
          store.listMemories({ orderBy: 'createdAt', direction: 'asc', limit, offset, filter }).then(idsOf);
        expect(await list(2, 0)).toEqual(['a', 'c']);
        expect(await list(2, 2)).toEqual(['b', 'e']);
        expect(await list(2, 4)).toEqual(['d']);
        expect(await list(2, 5)).toEqual([]);
        expect(await list(undefined, 3)).toEqual(['e', 'd']);
        expect(await list(3, undefined)).toEqual(['a', 'c', 'b']);
        expect(await list(0, 0)).toEqual([]);
        expect(await list(2, 1, { ids: ['a', 'b', 'c'] })).toEqual(['c', 'b']);
      });
    });

    describe('lexical search', () => {
      test(
        'lexical: context is stored and searchable, but is not content',
        async () => {
          await seed(store, [
            makeMemory({ id: 'turn', content: 'Yes, that one!', context: 'Did you see the zebra crossing downtown?' }),
            makeMemory({ id: 'other', content: 'No zebra here' }),
          ]);
          expect((await store.getMemories(['turn']))[0]!.context).toBe('Did you see the zebra crossing downtown?');
          const hits = await lexicalSearch(store, { text: 'crossing', limit: 10 });
          expect(idsOf(hits)).toEqual(['turn']);
        },
        LEXICAL,
      );

      test(
        'lexical: more occurrences of a query term rank higher',
        async () => {
          await seed(store, [
            makeMemory({ id: 'once', content: 'apple banana cherry grape' }),
            makeMemory({ id: 'twice', content: 'apple apple banana cherry' }),
            makeMemory({ id: 'none', content: 'melon peach plum lime' }),
          ]);
          const hits = await lexicalSearch(store, { text: 'apple', limit: 10 });
          expect(idsOf(hits)).toEqual(['twice', 'once']);
          expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        },
        LEXICAL,
      );

      test(
        'lexical: a rarer term outweighs a common one',
        async () => {
          await seed(store, [
            makeMemory({ id: 'd1', content: 'apple kiwi' }),
            makeMemory({ id: 'd2', content: 'zebra kiwi' }),
            makeMemory({ id: 'd3', content: 'apple lemon' }),
            makeMemory({ id: 'd4', content: 'apple mango' }),
          ]);
          const hits = await lexicalSearch(store, { text: 'apple zebra', limit: 10 });
          expect(idsOf(hits)).toEqual(['d2', 'd1', 'd3', 'd4']);
          expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        },
        LEXICAL,
      );

      test(
        'lexical: only memories sharing a term are returned',
        async () => {
          await seed(store, [
            makeMemory({ id: 'a', content: 'the quick brown fox' }),
            makeMemory({ id: 'b', content: 'a lazy dog sleeps' }),
          ]);
          expect(idsOf(await lexicalSearch(store, { text: 'fox', limit: 10 }))).toEqual(['a']);
          expect(await lexicalSearch(store, { text: 'orchid', limit: 10 })).toEqual([]);
          expect(await lexicalSearch(store, { text: 'the a', limit: 10 })).toEqual([]);
          expect(await lexicalSearch(store, { text: '', limit: 10 })).toEqual([]);
        },
        LEXICAL,
      );

      test(
        'lexical: stemming (running finds runs)',
        async () => {
          await seed(store, [
            makeMemory({ id: 'runs', content: 'The dog runs every morning' }),
            makeMemory({ id: 'walks', content: 'The cat walks every evening' }),
          ]);
          expect(idsOf(await lexicalSearch(store, { text: 'running', limit: 10 }))).toEqual(['runs']);
          expect(idsOf(await lexicalSearch(store, { text: 'Walked', limit: 10 }))).toEqual(['walks']);
        },
        LEXICAL,
      );

      test(
        'lexical: positive scores, best first, limit respected, ties by id',
        async () => {
          await seed(store, [
            makeMemory({ id: 'c', content: 'orange juice' }),
            makeMemory({ id: 'a', content: 'orange juice' }),
            makeMemory({ id: 'b', content: 'orange juice' }),
            makeMemory({ id: 'top', content: 'orange orange juice' }),
            makeMemory({ id: 'other', content: 'apple pie' }),
          ]);
          const hits = await lexicalSearch(store, { text: 'orange', limit: 10 });
          expect(idsOf(hits)).toEqual(['top', 'a', 'b', 'c']);
          for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
          expect(hits[1]!.score).toBe(hits[2]!.score);
          expect(idsOf(await lexicalSearch(store, { text: 'orange', limit: 2 }))).toEqual(['top', 'a']);
        },
        LEXICAL,
      );

      test(
        'lexical: abstract, overview and entity names are indexed',
        async () => {
          await seed(store, [
            makeMemory({ id: 'abstract', abstract: 'Notes about lighthouses.', content: 'Some other text here.' }),
            makeMemory({ id: 'overview', overview: '- topic: volcanoes', content: 'Unrelated body text.' }),
            makeMemory({ id: 'entity', entities: ['Zanzibar'], content: 'Went on a trip.' }),
          ]);
          expect(idsOf(await lexicalSearch(store, { text: 'lighthouse', limit: 10 }))).toEqual(['abstract']);
          expect(idsOf(await lexicalSearch(store, { text: 'volcanoes', limit: 10 }))).toEqual(['overview']);
          expect(idsOf(await lexicalSearch(store, { text: 'zanzibar', limit: 10 }))).toEqual(['entity']);
        },
        LEXICAL,
      );

      test(
        'lexical: the index follows replace and delete',
        async () => {
          await seed(store, [
            makeMemory({ id: 'a', content: 'original walnut text' }),
            makeMemory({ id: 'b', content: 'walnut and pecan' }),
          ]);
          await seed(store, [makeMemory({ id: 'a', content: 'replacement hazelnut text' })]);
          expect(idsOf(await lexicalSearch(store, { text: 'walnut', limit: 10 }))).toEqual(['b']);
          expect(idsOf(await lexicalSearch(store, { text: 'hazelnut', limit: 10 }))).toEqual(['a']);
          await store.deleteMemories(['b']);
          expect(await lexicalSearch(store, { text: 'walnut pecan', limit: 10 })).toEqual([]);
        },
        LEXICAL,
      );
    });

    describe('vector search', () => {
      test(
        'vector: nearest first, scores are cosine similarity',
        async () => {
          const vectors: Record<string, Float32Array> = {
            near: normalize([1, 0.1, 0, 0, 0, 0, 0, 0]),
            mid: normalize([1, 1, 0, 0, 0, 0, 0, 0]),
            far: axisVector(DIMS, 1),
            opposite: axisVector(DIMS, 0, -1),
            skew: normalize([0.3, -0.2, 0.5, 0.1, 0, 0.7, -0.4, 0.2]),
          };
          await seed(
            store,
            Object.keys(vectors).map((id) => makeMemory({ id })),
            (memory) => vectors[memory.id]!,
          );
          const query = normalize([1, 0, 0, 0, 0, 0, 0.05, 0]);
          const hits = await vectorSearch(store, { vector: query, limit: 10 });
          expect(idsOf(hits)).toEqual(['near', 'mid', 'skew', 'far', 'opposite']);
          for (const hit of hits) expect(hit.score).toBeCloseTo(cosineSimilarity(query, vectors[hit.id]!), 5);
          expect(hits[4]!.score).toBeLessThan(0);
          expect(idsOf(await vectorSearch(store, { vector: query, limit: 2 }))).toEqual(['near', 'mid']);
        },
        VECTOR,
      );

      test(
        'vector: memories without embeddings are excluded',
        async () => {
          await seed(
            store,
            ['with', 'without'].map((id) => makeMemory({ id })),
            (memory) => (memory.id === 'with' ? axisVector(DIMS, 2) : null),
          );
          const hits = await vectorSearch(store, { vector: axisVector(DIMS, 2), limit: 10 });
          expect(idsOf(hits)).toEqual(['with']);
          expect(hits[0]!.score).toBeCloseTo(1, 5);
        },
        VECTOR,
      );

      test(
        'vector: equal scores are ordered by id',
        async () => {
          await seed(
            store,
            ['c', 'a', 'b'].map((id) => makeMemory({ id })),
            () => axisVector(DIMS, 3),
          );
          expect(idsOf(await vectorSearch(store, { vector: axisVector(DIMS, 3), limit: 10 }))).toEqual(['a', 'b', 'c']);
        },
        VECTOR,
      );
    });

    describe('unicode and size', () => {
      test(
        'unicode: accents fold (cafe finds café)',
        async () => {
          const memory = makeMemory({
            id: 'cafe',
            content: 'Meet Zoë at the café on Ærøskøbing street',
            entities: ['Zoë'],
          });
          await seed(store, [memory, makeMemory({ id: 'other', content: 'Meet at the station' })]);
          expect(await store.getMemories(['cafe'])).toEqual([memory]);
          expect(idsOf(await lexicalSearch(store, { text: 'cafe', limit: 10 }))).toEqual(['cafe']);
          expect(idsOf(await lexicalSearch(store, { text: 'CAFÉ', limit: 10 }))).toEqual(['cafe']);
          expect(idsOf(await lexicalSearch(store, { text: 'zoe', limit: 10 }))).toEqual(['cafe']);
          expect(idsOf(await store.listMemories({ filter: { entities: ['ZOË'] } }))).toEqual(['cafe']);
        },
        LEXICAL,
      );

      test(
        'unicode: entity filters fold accents and case as text search does (zoe finds Zoë)',
        async () => {
          await seed(store, [
            makeMemory({ id: 'zoe', content: 'Lunch with her at noon', entities: ['Zoë'] }),
            makeMemory({ id: 'jose', content: 'Lunch with him at noon', entities: ['JOSÉ Núñez'] }),
            makeMemory({ id: 'other', content: 'Lunch alone at noon', entities: ['Zora'] }),
          ]);
          for (const [names, want] of [
            [['zoe'], ['zoe']],
            [['ZOE'], ['zoe']],
            [['Zoë'], ['zoe']],
            // A decomposed ë (e + U+0308) is the same name.
            [['Zoe\u0308'], ['zoe']],
            [['jose nunez'], ['jose']],
            [
              ['zoe', 'José Núñez'],
              ['jose', 'zoe'],
            ],
            [['zo'], []],
          ] as const) {
            const filter = { entities: [...names] };
            const label = JSON.stringify(filter);
            expect(sorted(idsOf(await store.listMemories({ filter }))), `listMemories ${label}`).toEqual([...want]);
            expect(await store.countMemories(filter), `countMemories ${label}`).toBe(want.length);
            expect(sorted(idsOf(await lexicalSearch(store, { text: 'lunch', filter, limit: 10 }))), label).toEqual([
              ...want,
            ]);
          }
        },
        LEXICAL,
      );

      test(
        'unicode: CJK text round-trips and is searchable',
        async () => {
          const memory = makeMemory({ id: 'tokyo', content: '東京タワーに行きました。とても楽しかった！' });
          await seed(store, [memory, makeMemory({ id: 'other', content: 'We went to Paris' })]);
          expect(await store.getMemories(['tokyo'])).toEqual([memory]);
          expect(idsOf(await lexicalSearch(store, { text: '東京', limit: 10 }))).toEqual(['tokyo']);
        },
        LEXICAL,
      );

      test(
        'unicode: emoji round-trip exactly',
        async () => {
          const memory = makeMemory({
            id: 'emoji',
            content: 'Birthday 🎉🎂 party with the 👨‍👩‍👧 family 🇯🇵',
            abstract: '🎉',
            metadata: { mood: '😀', flags: ['🇫🇷'] },
          });
          await seed(store, [memory]);
          expect(await store.getMemories(['emoji'])).toEqual([memory]);
          expect((await store.getMemories(['emoji']))[0]!.content).toBe(memory.content);
          expect(idsOf(await lexicalSearch(store, { text: 'party', limit: 10 }))).toEqual(['emoji']);
        },
        LEXICAL,
      );

      test(
        'a 100 KB content round-trips exactly and is searchable',
        async () => {
          const chunk = 'Plain words, café, 東京, emoji 🎉 and more words to fill the page. ';
          const half = chunk.repeat(Math.ceil(50_000 / chunk.length));
          const content = `${half} xylophonist ${half}`;
          expect(new TextEncoder().encode(content).byteLength).toBeGreaterThan(100_000);
          const memory = makeMemory({ id: 'big', content });
          await seed(store, [memory, makeMemory({ id: 'small', content: 'a short note about words' })]);
          const [got] = await store.getMemories(['big']);
          expect(got!.content === content).toBe(true);
          expect(idsOf(await lexicalSearch(store, { text: 'xylophonist', limit: 10 }))).toEqual(['big']);
        },
        LEXICAL,
      );
    });

    describe('record collections', () => {
      recordCollectionTests(
        'opinions',
        (s) => s.opinions,
        (o) => makeOpinion(o),
        (r) => ({ ...r, confidence: 0.2, statement: 'changed' }),
      );
      recordCollectionTests(
        'procedures',
        (s) => s.procedures,
        (o) => makeProcedure(o),
        (r) => ({ ...r, steps: [...r.steps, 'another step'], successCount: 3 }),
      );
      recordCollectionTests(
        'sessions',
        (s) => s.sessions,
        (o) => makeSession(o),
        (r) => ({ ...r, endedAt: day(1), summary: 'done' }),
      );
      recordCollectionTests(
        'entities',
        (s) => s.entities,
        (o) => makeEntity(o),
        (r) => ({ ...r, summary: 'Peter is a friend.', memoryCount: 4 }),
      );
    });

    describe('bulk changes (restore, import, clear)', () => {
      const ALICE = { userId: 'alice' };
      const BOB = { userId: 'bob' };
      async function seedOld(): Promise<void> {
        await seed(store, [
          makeMemory({ id: 'old-a1', content: 'old alice one', scope: ALICE }),
          makeMemory({ id: 'old-a2', content: 'old alice two', scope: ALICE }),
          makeMemory({ id: 'old-b1', content: 'old bob one', scope: BOB }),
        ]);
        await store.opinions.upsert([
          makeOpinion({ id: 'op-a', scope: ALICE }),
          makeOpinion({ id: 'op-b', scope: BOB }),
        ]);
      }
      const snapshot = async () => ({
        memories: sorted(idsOf(await store.listMemories())),
        opinions: sorted(idsOf(await store.opinions.list())),
      });

      test('stages changes exactly when it has stageChange', async () => {
        expect(typeof store.stageChange === 'function').toBe(store.capabilities.stagedChanges);
      });

      test(
        'a bulk change that fails part-way applies nothing, not even what it wrote first',
        async () => {
          await seedOld();
          const before = await snapshot();
          const failure = new Error('the archive changed while it was read');
          const error = await changeAtomically(store, { replace: { scope: ALICE } }, async (writer) => {
            await writer.upsertMemories([
              {
                memory: makeMemory({ id: 'new-a1', content: 'new alice', scope: ALICE }),
                embedding: unitVector(DIMS, 7),
              },
            ]);
            await writer.upsertRecords('opinions', [makeOpinion({ id: 'op-new', scope: ALICE })]);
            throw failure;
          }).catch((caught: unknown) => caught);
          expect(error).toBe(failure);
          expect(await snapshot()).toEqual(before);
        },
        BULK,
      );

      test(
        'a replacing change swaps one scope for the new data at once and reports what it removed',
        async () => {
          await seedOld();
          const { result, removed } = await changeAtomically(store, { replace: { scope: ALICE } }, async (writer) => {
            await writer.upsertMemories([
              {
                memory: makeMemory({ id: 'new-a1', content: 'new alice', scope: ALICE }),
                embedding: unitVector(DIMS, 7),
              },
              {
                memory: makeMemory({ id: 'old-a2', content: 'old alice two, replaced', scope: ALICE }),
                embedding: null,
              },
            ]);
            await writer.upsertRecords('opinions', [makeOpinion({ id: 'op-new', scope: ALICE })]);
            return 'done';
          });
          expect(result).toBe('done');
          expect(removed).toEqual({ memories: 2, opinions: 1, procedures: 0, sessions: 0, entities: 0 });
          expect(await snapshot()).toEqual({ memories: ['new-a1', 'old-a2', 'old-b1'], opinions: ['op-b', 'op-new'] });
          expect((await store.getMemories(['old-a2']))[0]!.content).toBe('old alice two, replaced');
          expect([...(await store.getEmbeddings(['new-a1', 'old-a2'])).keys()]).toEqual(['new-a1']);
        },
        BULK,
      );

      test(
        'an adding change (import) keeps what is there and replaces by id, a later write winning',
        async () => {
          await seedOld();
          await changeAtomically(store, {}, async (writer) => {
            await writer.upsertMemories([
              { memory: makeMemory({ id: 'x', content: 'first', scope: BOB }), embedding: null },
            ]);
            await writer.upsertMemories([
              { memory: makeMemory({ id: 'x', content: 'second', scope: BOB }), embedding: null },
            ]);
          });
          expect((await snapshot()).memories).toEqual(['old-a1', 'old-a2', 'old-b1', 'x']);
          expect((await store.getMemories(['x']))[0]!.content).toBe('second');
        },
        BULK,
      );

      test(
        'a clear of everything removes every memory and record',
        async () => {
          await seedOld();
          const { removed } = await changeAtomically(store, { replace: {} }, async () => undefined);
          expect(removed.memories).toBe(3);
          expect(await snapshot()).toEqual({ memories: [], opinions: [] });
        },
        BULK,
      );

      test('staged writes stay invisible until commit, and abort drops them', async () => {
        if (!store.stageChange) return;
        await seedOld();
        const before = await snapshot();
        const staged = await store.stageChange({ replace: { scope: ALICE } });
        await staged.upsertMemories([{ memory: makeMemory({ id: 'new-a1', scope: ALICE }), embedding: null }]);
        expect(await snapshot()).toEqual(before);
        await staged.abort();
        expect(await snapshot()).toEqual(before);
      });
    });

    describe('transactions', () => {
      test('transaction commits on success and resolves to its value', async () => {
        const result = await store.transaction(async () => {
          await seed(store, [makeMemory({ id: 'a', content: 'committed walnut' })]);
          await store.opinions.upsert([makeOpinion({ id: 'op' })]);
          await store.sessions.upsert([makeSession({ id: 'ses' })]);
          return 42;
        });
        expect(result).toBe(42);
        expect(idsOf(await store.getMemories(['a']))).toEqual(['a']);
        expect(idsOf(await store.opinions.get(['op']))).toEqual(['op']);
        expect(idsOf(await store.sessions.get(['ses']))).toEqual(['ses']);
        if (store.capabilities.lexicalSearch) {
          expect(idsOf(await lexicalSearch(store, { text: 'walnut', limit: 5 }))).toEqual(['a']);
        }
      });

      test('transaction passes the rejection of its work on, whatever it guarantees', async () => {
        const failure = new Error('work failed');
        await expect(
          store.transaction(async () => {
            await seed(store, [makeMemory({ id: 'a' })]);
            throw failure;
          }),
        ).rejects.toBe(failure);
        // The store stays usable.
        await seed(store, [makeMemory({ id: 'b' })]);
        expect(idsOf(await store.getMemories(['b']))).toEqual(['b']);
      });

      // What `transactions: 'atomic'` and `'per-table'` both promise while the process lives.
      test('transaction rolls back every write on rejection and passes the rejection on', async () => {
        if (store.capabilities.transactions === 'none') return;
        await seed(store, [
          makeMemory({ id: 'keep', content: 'original apricot' }),
          makeMemory({ id: 'gone', content: 'doomed plum' }),
          makeMemory({ id: 'accessed', content: 'often read' }),
        ]);
        await store.opinions.upsert([makeOpinion({ id: 'op1' })]);
        await store.procedures.upsert([makeProcedure({ id: 'proc1' })]);
        await store.sessions.upsert([makeSession({ id: 'ses1' })]);
        await store.entities.upsert([makeEntity({ id: 'ent1' })]);

        const snapshot = async () => ({
          memories: await store.listMemories({ orderBy: 'createdAt', direction: 'asc' }),
          embeddings: [...(await store.getEmbeddings(['keep', 'gone', 'accessed', 'fresh']))].map(([id, v]) => [
            id,
            Array.from(v),
          ]),
          opinions: await store.opinions.list(),
          procedures: await store.procedures.list(),
          sessions: await store.sessions.list(),
          entities: await store.entities.list(),
          counts: await store.stats().then(({ bytes: _bytes, ...counts }) => counts),
        });
        const before = await snapshot();

        const failure = new Error('work failed');
        const outcome = store.transaction(async () => {
          await store.upsertMemories([
            { memory: makeMemory({ id: 'fresh', content: 'brand new walnut' }), embedding: unitVector(DIMS, 50) },
            { memory: makeMemory({ id: 'keep', content: 'changed hazelnut' }), embedding: unitVector(DIMS, 51) },
          ]);
          await store.deleteMemories(['gone']);
          await store.recordAccess(['accessed'], day(9));
          await store.opinions.upsert([makeOpinion({ id: 'op1', statement: 'rewritten' }), makeOpinion({ id: 'op2' })]);
          await store.procedures.delete(['proc1']);
          await store.sessions.upsert([makeSession({ id: 'ses2' })]);
          await store.entities.upsert([makeEntity({ id: 'ent1', name: 'Renamed' })]);
          await store.entities.delete(['ent1']);
          // Reads inside the transaction see its own writes.
          expect(await store.countMemories()).toBe(3);
          expect((await store.getMemories(['keep']))[0]!.content).toBe('changed hazelnut');
          throw failure;
        });
        await expect(outcome).rejects.toBe(failure);

        expect(await snapshot()).toEqual(before);
        if (store.capabilities.lexicalSearch) {
          expect(await lexicalSearch(store, { text: 'walnut hazelnut', limit: 5 })).toEqual([]);
          expect(idsOf(await lexicalSearch(store, { text: 'apricot', limit: 5 }))).toEqual(['keep']);
          expect(idsOf(await lexicalSearch(store, { text: 'plum', limit: 5 }))).toEqual(['gone']);
        }
        if (store.capabilities.vectorSearch) {
          const hits = await vectorSearch(store, { vector: unitVector(DIMS, 50), limit: 10 });
          expect(sorted(idsOf(hits))).toEqual(['accessed', 'gone', 'keep']);
        }
        // The store stays usable after a rollback.
        await seed(store, [makeMemory({ id: 'after' })]);
        expect(await store.countMemories()).toBe(4);
      });

      test('concurrent transactions are serialised', async () => {
        const events: string[] = [];
        const run = (name: string) =>
          store.transaction(async () => {
            events.push(`${name} start`);
            await seed(store, [makeMemory({ id: name })]);
            await sleep(15);
            events.push(`${name} end`);
            return name;
          });
        const results = await Promise.all([run('t1'), run('t2'), run('t3')]);
        expect(results).toEqual(['t1', 't2', 't3']);
        for (let i = 0; i < events.length; i += 2) {
          expect(events[i]!.replace(' start', ''), events.join(', ')).toBe(events[i + 1]!.replace(' end', ''));
        }
        expect(await store.countMemories()).toBe(3);
      });

      test('a write outside a transaction waits for the running transaction', async () => {
        const failure = new Error('rolled back');
        const entered = deferred();
        const gate = deferred();
        const outcome = store.transaction(async () => {
          await seed(store, [makeMemory({ id: 'inside' })]);
          entered.resolve();
          await gate.promise;
          throw failure;
        });
        await entered.promise;
        let outsideDone = false;
        const outside = seed(store, [makeMemory({ id: 'outside' })]).then(() => {
          outsideDone = true;
        });
        try {
          await sleep(20);
          expect(outsideDone).toBe(false);
        } finally {
          // Even when the check fails, let the transaction end so the store can close.
          gate.resolve();
        }
        await expect(outcome).rejects.toBe(failure);
        await outside;
        const kept = idsOf(await store.getMemories(['inside', 'outside']));
        if (store.capabilities.transactions === 'none') expect(kept).toContain('outside');
        else expect(kept).toEqual(['outside']);
      });
    });

    describe('stats and close', () => {
      test('stats counts memories and records', async () => {
        await seed(
          store,
          ['a', 'b', 'c'].map((id) => makeMemory({ id })),
          (_, i) => (i < 2 ? unitVector(DIMS, i + 1) : null),
        );
        await store.opinions.upsert([makeOpinion({ id: 'o1' }), makeOpinion({ id: 'o2' })]);
        await store.procedures.upsert([makeProcedure({ id: 'p1' })]);
        await store.sessions.upsert([makeSession({ id: 's1' }), makeSession({ id: 's2' }), makeSession({ id: 's3' })]);
        await store.entities.upsert([makeEntity({ id: 'e1' })]);
        const stats = await store.stats();
        expect(stats).toMatchObject({ memories: 3, opinions: 2, procedures: 1, sessions: 3, entities: 1 });
        expect(stats.bytes).toBeGreaterThan(0);
        await seed(store, [makeMemory({ id: 'big', content: 'x'.repeat(50_000) })]);
        const grown = await store.stats();
        expect(grown.memories).toBe(4);
        expect(grown.bytes).toBeGreaterThan(stats.bytes);
      });

      test(
        'check() finds a healthy store ok, with no problems, and changes nothing',
        async () => {
          await seed(store, [makeMemory({ id: 'a' }), makeMemory({ id: 'b' })]);
          await store.opinions.upsert([makeOpinion({ id: 'o1' })]);
          const result = await store.check!();
          expect(result.ok).toBe(true);
          expect(result.problems).toEqual([]);
          expect(await store.countMemories()).toBe(2);
          expect(idsOf(await store.opinions.list())).toEqual(['o1']);
        },
        CHECK,
      );

      test('after close every call rejects with a StoreError', async () => {
        await seed(store, [makeMemory({ id: 'a' })]);
        await store.close();
        const calls: Array<[string, () => Promise<unknown>]> = [
          ['open', () => store.open(EMBEDDER)],
          ['getMemories', () => store.getMemories(['a'])],
          ['upsertMemories', () => store.upsertMemories([{ memory: makeMemory({ id: 'b' }), embedding: null }])],
          ['deleteMemories', () => store.deleteMemories(['a'])],
          ['listMemories', () => store.listMemories()],
          ['countMemories', () => store.countMemories()],
          ['getEmbeddings', () => store.getEmbeddings(['a'])],
          ['recordAccess', () => store.recordAccess(['a'], day(1))],
          ['transaction', () => store.transaction(async () => 1)],
          ['stats', () => store.stats()],
        ];
        if (store.searchLexical) calls.push(['searchLexical', () => lexicalSearch(store, { text: 'a', limit: 1 })]);
        if (store.searchVector) {
          calls.push(['searchVector', () => vectorSearch(store, { vector: unitVector(DIMS, 1), limit: 1 })]);
        }
        for (const [label, pick] of [
          ['opinions', (s: DerivedStore) => s.opinions],
          ['procedures', (s: DerivedStore) => s.procedures],
          ['sessions', (s: DerivedStore) => s.sessions],
          ['entities', (s: DerivedStore) => s.entities],
        ] as const) {
          const collection = pick(store) as RecordCollection<{ id: string }>;
          calls.push([`${label}.get`, () => collection.get(['x'])]);
          calls.push([`${label}.upsert`, () => collection.upsert([])]);
          calls.push([`${label}.delete`, () => collection.delete(['x'])]);
          calls.push([`${label}.list`, () => collection.list()]);
        }
        for (const [label, call] of calls) {
          let promise: Promise<unknown>;
          try {
            promise = call();
          } catch (error) {
            throw new Error(`${label} threw synchronously instead of rejecting: ${String(error)}`);
          }
          const outcome = await promise.then(
            () => 'resolved',
            (error: unknown) => (StoreError.isInstance(error) ? 'store-error' : `other: ${String(error)}`),
          );
          expect(outcome, label).toBe('store-error');
        }
      });

      test('close twice is harmless', async () => {
        await store.close();
        await store.close();
        await expect(Promise.all([store.close(), store.close()])).resolves.toBeDefined();
      });
    });

    checkSkipList();
  });
}
