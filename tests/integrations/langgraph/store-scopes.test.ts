import { describe, expect, it } from 'vitest';
import { createMemory, type MemoryClient, ValidationError } from '../../../src/index.js';
import { MemoirStore } from '../../../src/integrations/langgraph/index.js';
import { quiet, STORES, tempDir } from '../../helpers/stores.js';
import { thrownBy } from '../../helpers/thrown.js';
import { keysOf, rejectionOf } from './langgraph-stores.js';

// The namespace → scope mapping and the scope boundary, on every memoir store: one memoir
// store file shared by an unscoped (admin) client and clients scoped to users.

describe.each(STORES)('MemoirStore scopes on %s', (_name, makeStore) => {
  async function withClients<T>(
    run: (clients: (scope?: { userId?: string; agentId?: string }) => MemoryClient) => Promise<T>,
  ) {
    const store = makeStore();
    const opened: MemoryClient[] = [];
    // One store, several clients: the first opens it, the others share it (closing is the first's).
    const clients = (scope?: { userId?: string; agentId?: string }) => {
      const memory = createMemory({ store, logger: quiet, ...(scope ? { scope } : {}) });
      opened.push(memory);
      return memory;
    };
    try {
      return await run(clients);
    } finally {
      await opened[0]?.close();
    }
  }

  it('["users", id, …] lands in the memoir user id; ["agents", id, …] in the agent; other labels in the store’s own scope', async () => {
    await withClients(async (clients) => {
      const admin = clients();
      const store = new MemoirStore({ memory: admin });
      await store.put(['users', 'alice', 'facts'], 'diet', { text: 'Alice is vegetarian.' });
      await store.put(['agents', 'planner', 'notes'], 'style', { text: 'Plans in short steps.' });
      await store.put(['agents', 'planner', 'users', 'alice'], 'pref', { text: 'Alice wants plans by email.' });
      await store.put(['shared', 'docs'], 'readme', { text: 'Shared for everyone.' });
      const scopes = Object.fromEntries(
        (await admin.list({ categories: ['langgraph'] })).map((memory) => [
          (memory.metadata.langgraph as { key: string }).key,
          memory.scope,
        ]),
      );
      expect(scopes).toEqual({
        diet: { userId: 'alice' },
        style: { agentId: 'planner' },
        pref: { agentId: 'planner', userId: 'alice' },
        readme: {},
      });
      // memoir's own reads see the items in those scopes: Alice's client recalls her fact.
      const alice = clients({ userId: 'alice' });
      const { results } = await alice.recall('is Alice vegetarian?', { k: 3 });
      expect(results.map((result) => result.memory.content)).toContain('Alice is vegetarian.');
    });
  });

  it('a store over a scoped client never reads or lists another user’s items, and refuses to write them', async () => {
    await withClients(async (clients) => {
      const admin = new MemoirStore({ memory: clients() });
      await admin.put(['users', 'alice', 'facts'], 'diet', { text: 'Alice is vegetarian.' });
      await admin.put(['users', 'bob', 'facts'], 'diet', { text: 'Bob eats everything.' });
      const bob = new MemoirStore({ memory: clients({ userId: 'bob' }) });

      expect(await bob.get(['users', 'alice', 'facts'], 'diet')).toBeNull();
      expect((await bob.get(['users', 'bob', 'facts'], 'diet'))!.value).toEqual({ text: 'Bob eats everything.' });
      expect(keysOf(await bob.search(['users', 'alice']))).toEqual([]);
      expect((await bob.search([])).map((item) => item.namespace)).toEqual([['users', 'bob', 'facts']]);
      expect((await bob.search(['users'], { query: 'vegetarian' })).map((item) => item.namespace[1])).toEqual(['bob']);
      expect(await bob.listNamespaces()).toEqual([['users', 'bob', 'facts']]);
      expect(await bob.listNamespaces({ prefix: ['users', 'alice'] })).toEqual([]);

      const write = await rejectionOf(bob.put(['users', 'alice', 'facts'], 'diet', { text: 'overwritten' }));
      expect(ValidationError.isInstance(write)).toBe(true);
      expect((write as ValidationError).field).toBe('namespace[1]');
      expect((write as ValidationError).message).toContain('expected "bob", the store\'s own userId (got "alice")');
      const remove = await rejectionOf(
        bob.batch([{ namespace: ['users', 'alice', 'facts'], key: 'diet', value: null }]),
      );
      expect((remove as ValidationError).field).toBe('operations[0].namespace[1]');
      expect((await admin.get(['users', 'alice', 'facts'], 'diet'))!.value).toEqual({ text: 'Alice is vegetarian.' });
    });
  });

  it('a hole in a batch is refused by its index before any operation runs', async () => {
    await withClients(async (clients) => {
      const store = new MemoirStore({ memory: clients({ userId: 'alice' }) });
      const put = { namespace: ['facts'], key: 'diet', value: { text: 'vegetarian' } };
      // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
      const error = await rejectionOf(store.batch([put, , put] as never));
      expect(ValidationError.isInstance(error)).toBe(true);
      expect((error as ValidationError).field).toBe('operations[1]');
      expect(await store.get(['facts'], 'diet')).toBeNull();
    });
  });

  it('search and listNamespaces refuse options that are not an object, naming the argument', async () => {
    await withClients(async (clients) => {
      const store = new MemoirStore({ memory: clients({ userId: 'alice' }) });
      for (const options of [null, 'limit=5', 5, ['prefix'], new Map()]) {
        for (const call of [
          () => store.search(['facts'], options as never),
          () => store.listNamespaces(options as never),
        ]) {
          const error = await rejectionOf(call());
          expect(ValidationError.isInstance(error), String(error)).toBe(true);
          expect((error as ValidationError).field).toBe('options');
        }
      }
      expect(await store.search(['facts'], undefined)).toEqual([]);
    });
  });

  it('scoped stores writing the same unscoped address keep separate items; the admin store sees neither', async () => {
    await withClients(async (clients) => {
      const alice = new MemoirStore({ memory: clients({ userId: 'alice' }) });
      const bob = new MemoirStore({ memory: clients({ userId: 'bob' }) });
      const admin = new MemoirStore({ memory: clients() });
      await alice.put(['memories'], 'profile', { name: 'Alice' });
      await bob.put(['memories'], 'profile', { name: 'Bob' });
      await admin.put(['memories'], 'profile', { name: 'Admin' });
      expect((await alice.get(['memories'], 'profile'))!.value).toEqual({ name: 'Alice' });
      expect((await bob.get(['memories'], 'profile'))!.value).toEqual({ name: 'Bob' });
      expect((await admin.get(['memories'], 'profile'))!.value).toEqual({ name: 'Admin' });
      expect((await alice.search(['memories'])).map((item) => item.value)).toEqual([{ name: 'Alice' }]);
      expect((await admin.search([])).map((item) => item.value)).toEqual([{ name: 'Admin' }]);
      // The same item, addressed with the scope named, is a different address.
      expect(await alice.get(['users', 'alice', 'memories'], 'profile')).toBeNull();
      await bob.delete(['memories'], 'profile');
      expect((await alice.get(['memories'], 'profile'))!.value).toEqual({ name: 'Alice' });
    });
  });

  it('a store opened with a scope option over a home is a scoped store', async () => {
    const home = tempDir('memoir-langgraph-home-');
    const admin = new MemoirStore({ home });
    await admin.put(['users', 'carol', 'facts'], 'city', { text: 'Carol lives in Porto.' });
    await admin.put(['users', 'dave', 'facts'], 'city', { text: 'Dave lives in Oslo.' });
    await admin.stop();
    const carol = new MemoirStore({ home, scope: { userId: 'carol' } });
    expect(await carol.listNamespaces()).toEqual([['users', 'carol', 'facts']]);
    expect(await carol.get(['users', 'dave', 'facts'], 'city')).toBeNull();
    await carol.stop();
  });
});

describe('MemoirStore input validation', () => {
  const memory = () => createMemory({ store: STORES[0]![1](), logger: quiet });

  it.each([
    ['a label with a period', () => new MemoirStore({ memory: memory() }).put(['a.b'], 'k', { n: 1 }), 'namespace[0]'],
    ['an empty namespace for a put', () => new MemoirStore({ memory: memory() }).put([], 'k', { n: 1 }), 'namespace'],
    ['the reserved root', () => new MemoirStore({ memory: memory() }).put(['langgraph'], 'k', { n: 1 }), 'namespace'],
    [
      'a value that is not an object',
      () => new MemoirStore({ memory: memory() }).put(['a'], 'k', 'text' as unknown as Record<string, unknown>),
      'value',
    ],
    [
      'a Date inside the value',
      () => new MemoirStore({ memory: memory() }).put(['a'], 'k', { when: new Date() }),
      'value.when',
    ],
    [
      'NaN inside the value',
      () => new MemoirStore({ memory: memory() }).put(['a'], 'k', { list: [1, Number.NaN] }),
      'value.list[1]',
    ],
    [
      'a key that is not a string',
      () => new MemoirStore({ memory: memory() }).get(['a'], 42 as unknown as string),
      'key',
    ],
    ['a negative limit', () => new MemoirStore({ memory: memory() }).search(['a'], { limit: -1 }), 'limit'],
    ['a maxDepth of 0', () => new MemoirStore({ memory: memory() }).listNamespaces({ maxDepth: 0 }), 'maxDepth'],
    [
      'a second operation of a batch',
      () =>
        new MemoirStore({ memory: memory() }).batch([
          { namespace: ['a'], key: 'k', value: { n: 1 } },
          { namespacePrefix: ['ok', 'bad:label'] },
        ]),
      'operations[1].namespacePrefix[1]',
    ],
    [
      'a user id longer than memoir keeps',
      () => new MemoirStore({ memory: memory() }).put(['users', 'u'.repeat(300)], 'k', { n: 1 }),
      'namespace[1]',
    ],
  ])('%s is a ValidationError naming the field, and nothing is written', async (_case, call, field) => {
    const error = await rejectionOf(call());
    expect(ValidationError.isInstance(error), String(error)).toBe(true);
    expect((error as ValidationError).field).toBe(field);
  });

  it('a batch with one bad operation writes none of it', async () => {
    const store = new MemoirStore({ memory: memory() });
    await rejectionOf(
      store.batch([
        { namespace: ['a'], key: 'first', value: { n: 1 } },
        { namespace: ['a'], key: 'second', value: { when: new Date() } },
      ]),
    );
    expect(await store.search([])).toEqual([]);
    await store.memory.close();
  });

  it.each([
    [{ memory: {} }, 'options.memory'],
    [{ memory: createMemory({ store: STORES[0]![1](), logger: quiet }), home: '/tmp/x' }, 'options.home'],
    [{ index: { dims: 256 } }, 'options.index'],
    [{ scope: { user: 'x' } }, 'options.scope'],
  ])('bad options %# are a ValidationError naming the option', (options, field) => {
    const error = thrownBy(() => new MemoirStore(options as never));
    expect(ValidationError.isInstance(error), String(error)).toBe(true);
    expect((error as ValidationError).field).toBe(field);
  });
});
