import type { BaseStore } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { keysOf, memoirStores, pause, referenceStore, type StoreMaker } from './langgraph-stores.js';

// The store behaviours LangGraph documents for its own stores (BaseStore's get / put / delete /
// search / listNamespaces / batch), as one table run against LangGraph's InMemoryStore — the
// reference — and MemoirStore over every memoir store. Where MemoirStore differs on purpose,
// store-differences.test.ts says so and tests it.

type SearchItem = Awaited<ReturnType<BaseStore['search']>>[number];
type Behaviour = [name: string, run: (store: BaseStore) => Promise<void>];

const BEHAVIOURS: Behaviour[] = [
  [
    'get after put returns the item: namespace, key, value and timestamps',
    async (store) => {
      const before = Date.now();
      await store.put(['docs', 'a'], 'k1', { text: 'hello', n: 1, nested: { list: [1, 'two', null, true] } });
      const item = await store.get(['docs', 'a'], 'k1');
      expect(item).toMatchObject({
        namespace: ['docs', 'a'],
        key: 'k1',
        value: { text: 'hello', n: 1, nested: { list: [1, 'two', null, true] } },
      });
      expect(item!.createdAt).toBeInstanceOf(Date);
      expect(item!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(item!.updatedAt.getTime()).toBe(item!.createdAt.getTime());
      expect(await store.get(['docs', 'a'], 'missing')).toBeNull();
      expect(await store.get(['docs'], 'k1')).toBeNull();
      expect(await store.get(['docs', 'a', 'deeper'], 'k1')).toBeNull();
    },
  ],
  [
    'put overwrites: get returns the latest value whole, createdAt kept, updatedAt moved',
    async (store) => {
      await store.put(['docs'], 'k', { a: 1, b: 2 });
      // Times read now: InMemoryStore updates the item it returned in place.
      const created = (await store.get(['docs'], 'k'))!.createdAt.getTime();
      await pause(5);
      await store.put(['docs'], 'k', { a: 3 });
      const second = await store.get(['docs'], 'k');
      expect(second!.value).toEqual({ a: 3 });
      expect(second!.createdAt.getTime()).toBe(created);
      expect(second!.updatedAt.getTime()).toBeGreaterThan(created);
      expect(keysOf(await store.search(['docs']))).toEqual(['k']);
    },
  ],
  [
    'delete removes the item from get and search; deleting nothing is harmless',
    async (store) => {
      await store.put(['docs'], 'k1', { text: 'one' });
      await store.put(['docs'], 'k2', { text: 'two' });
      await store.delete(['docs'], 'k1');
      await store.delete(['docs'], 'never-there');
      expect(await store.get(['docs'], 'k1')).toBeNull();
      expect(keysOf(await store.search(['docs']))).toEqual(['k2']);
      await store.put(['docs'], 'k1', { text: 'again' });
      expect((await store.get(['docs'], 'k1'))!.value).toEqual({ text: 'again' });
    },
  ],
  [
    'search lists the items under a namespace prefix (label by label), and only those',
    async (store) => {
      await store.put(['a', 'b'], 'k1', { n: 1 });
      await store.put(['a', 'c'], 'k2', { n: 2 });
      await store.put(['a'], 'k3', { n: 3 });
      await store.put(['ab'], 'k4', { n: 4 });
      expect(keysOf(await store.search(['a']))).toEqual(['k1', 'k2', 'k3']);
      expect(keysOf(await store.search(['a', 'b']))).toEqual(['k1']);
      expect(keysOf(await store.search([]))).toEqual(['k1', 'k2', 'k3', 'k4']);
      expect(await store.search(['a', 'b', 'c'])).toEqual([]);
      const [found] = await store.search(['a', 'b']);
      expect(found).toMatchObject({ namespace: ['a', 'b'], key: 'k1', value: { n: 1 } });
      expect(found!.score).toBeUndefined();
    },
  ],
  [
    'search filters on value fields: equality and $eq $ne $gt $gte $lt $lte $in $nin',
    async (store) => {
      const ns = ['shop', 'items'];
      await store.put(ns, 'apple', { kind: 'fruit', price: 3, colour: 'red' });
      await store.put(ns, 'pear', { kind: 'fruit', price: 5, colour: 'green' });
      await store.put(ns, 'leek', { kind: 'vegetable', price: 2, colour: 'green' });
      const keys = async (filter: Record<string, unknown>) => keysOf(await store.search(ns, { filter }));
      expect(await keys({ kind: 'fruit' })).toEqual(['apple', 'pear']);
      expect(await keys({ kind: 'fruit', colour: 'green' })).toEqual(['pear']);
      expect(await keys({ kind: { $eq: 'vegetable' } })).toEqual(['leek']);
      expect(await keys({ kind: { $ne: 'fruit' } })).toEqual(['leek']);
      expect(await keys({ price: { $gt: 3 } })).toEqual(['pear']);
      expect(await keys({ price: { $gte: 3 } })).toEqual(['apple', 'pear']);
      expect(await keys({ price: { $gte: 2, $lt: 5 } })).toEqual(['apple', 'leek']);
      expect(await keys({ price: { $lte: 2 } })).toEqual(['leek']);
      expect(await keys({ colour: { $in: ['red', 'blue'] } })).toEqual(['apple']);
      expect(await keys({ colour: { $nin: ['red'] } })).toEqual(['leek', 'pear']);
      expect(await keys({ missing: 'x' })).toEqual([]);
      expect(await keys({ price: 3 })).toEqual(['apple']);
    },
  ],
  [
    'limit (default 10) and offset page through the results without overlap',
    async (store) => {
      for (let n = 0; n < 12; n++) await store.put(['pages'], `k${String(n).padStart(2, '0')}`, { n });
      expect(await store.search(['pages'])).toHaveLength(10);
      const pages = [];
      for (let offset = 0; offset < 12; offset += 5) pages.push(await store.search(['pages'], { limit: 5, offset }));
      expect(pages.map((page) => page.length)).toEqual([5, 5, 2]);
      const all = pages.flat().map((item) => item.key);
      expect(new Set(all).size).toBe(12);
      expect(await store.search(['pages'], { offset: 12 })).toEqual([]);
      expect(keysOf(await store.search(['pages'], { filter: { n: { $gte: 6 } }, limit: 3, offset: 4 }))).toHaveLength(
        2,
      );
    },
  ],
  [
    'a query ranks the relevant item first, with a score',
    async (store) => {
      const ns = ['users', 'u1', 'memories'];
      await store.put(ns, 'flights', { text: 'Alice prefers window seats on long flights.' });
      await store.put(ns, 'allergy', { text: 'Alice is allergic to peanuts and carries an epipen.' });
      await store.put(ns, 'deploy', { text: 'The deploy runs every Friday at noon.' });
      await store.put(['users', 'u2', 'memories'], 'other', { text: 'Bob is allergic to peanuts too.' });
      const results = await store.search(ns, { query: 'is Alice allergic to peanuts?', limit: 3 });
      expect(results[0]!.key).toBe('allergy');
      expect(typeof results[0]!.score).toBe('number');
      expect(results.every((item) => item.namespace.join('/') === ns.join('/'))).toBe(true);
      const deploy = await store.search(ns, { query: 'when does the deploy run', limit: 1 });
      expect(deploy.map((item) => item.key)).toEqual(['deploy']);
    },
  ],
  [
    'listNamespaces lists every namespace, by prefix and suffix (with "*"), cut to maxDepth, paged',
    async (store) => {
      const namespaces = [
        ['a', 'b', 'c'],
        ['a', 'b', 'd', 'e'],
        ['a', 'b', 'd', 'i'],
        ['a', 'b', 'f'],
        ['a', 'c', 'f'],
        ['b', 'a', 'f'],
        ['users', 'u1', 'v1'],
      ];
      for (const namespace of namespaces) await store.put(namespace, 'k', { n: 1 });
      await store.put(['a', 'b', 'c'], 'second', { n: 2 });
      expect(await store.listNamespaces()).toEqual(namespaces);
      expect(await store.listNamespaces({ prefix: ['a', 'b'] })).toEqual(namespaces.slice(0, 4));
      expect(await store.listNamespaces({ suffix: ['f'] })).toEqual([
        ['a', 'b', 'f'],
        ['a', 'c', 'f'],
        ['b', 'a', 'f'],
      ]);
      expect(await store.listNamespaces({ prefix: ['a', '*'], suffix: ['f'] })).toEqual([
        ['a', 'b', 'f'],
        ['a', 'c', 'f'],
      ]);
      expect(await store.listNamespaces({ prefix: ['*', '*', 'd'] })).toEqual([
        ['a', 'b', 'd', 'e'],
        ['a', 'b', 'd', 'i'],
      ]);
      expect(await store.listNamespaces({ maxDepth: 3 })).toEqual([
        ['a', 'b', 'c'],
        ['a', 'b', 'd'],
        ['a', 'b', 'f'],
        ['a', 'c', 'f'],
        ['b', 'a', 'f'],
        ['users', 'u1', 'v1'],
      ]);
      expect(await store.listNamespaces({ prefix: ['a'], maxDepth: 2 })).toEqual([
        ['a', 'b'],
        ['a', 'c'],
      ]);
      expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual(namespaces.slice(1, 3));
      expect(await store.listNamespaces({ prefix: ['users', 'u2'] })).toEqual([]);
    },
  ],
  [
    'batch answers each operation in order, its reads seeing the store as it was before the batch',
    async (store) => {
      const ns = ['batch'];
      await store.put(ns, 'old', { text: 'before' });
      const results: unknown[] = await store.batch([
        { namespace: ns, key: 'new', value: { text: 'written' } },
        { namespace: ns, key: 'new' },
        { namespace: ns, key: 'old' },
        { namespacePrefix: ns, limit: 10, offset: 0 },
        // InMemoryStore tells a listing by its `matchConditions` key (MemoirStore also by limit/offset).
        { matchConditions: [], limit: 10, offset: 0 },
        { namespace: ns, key: 'old', value: null },
        { namespace: ns, key: 'twice', value: { n: 1 } },
        { namespace: ns, key: 'twice', value: { n: 2 } },
      ]);
      expect(results).toHaveLength(8);
      expect(results[0]).toBeNull();
      expect(results[1]).toBeNull();
      expect(results[2]).toMatchObject({ key: 'old', value: { text: 'before' } });
      expect(keysOf(results[3] as SearchItem[])).toEqual(['old']);
      expect(results[4]).toEqual([ns]);
      expect(results[5]).toBeNull();
      expect((await store.get(ns, 'new'))!.value).toEqual({ text: 'written' });
      expect(await store.get(ns, 'old')).toBeNull();
      expect((await store.get(ns, 'twice'))!.value).toEqual({ n: 2 });
    },
  ],
];

const STORES_UNDER_TEST: Array<[string, StoreMaker]> = [referenceStore, ...memoirStores()];

describe.each(STORES_UNDER_TEST)('%s', (_name, make) => {
  it.each(BEHAVIOURS)('%s', async (_behaviour, run) => {
    await run(make().store);
  });
});
