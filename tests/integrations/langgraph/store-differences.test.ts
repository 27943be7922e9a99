import type { BaseStore } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { memoirStores, pause, referenceStore } from './langgraph-stores.js';

// Where MemoirStore differs from LangGraph's InMemoryStore on purpose (docs/guides/langgraph.md,
// "Where it differs from InMemoryStore"). Each case runs on both, and says what each does.

const [, makeReference] = referenceStore;
const MEMOIR = memoirStores();

describe.each(MEMOIR)('%s, against InMemoryStore', (_name, makeMemoir) => {
  const both = (): { reference: BaseStore; memoir: BaseStore } => ({
    reference: makeReference().store,
    memoir: makeMemoir().store,
  });

  it('listNamespaces lists only namespaces that hold items; InMemoryStore keeps emptied ones', async () => {
    const { reference, memoir } = both();
    for (const store of [reference, memoir]) {
      await store.put(['kept'], 'k', { n: 1 });
      await store.put(['emptied'], 'k', { n: 1 });
      await store.delete(['emptied'], 'k');
    }
    expect(await reference.listNamespaces()).toEqual([['emptied'], ['kept']]);
    expect(await memoir.listNamespaces()).toEqual([['kept']]);
  });

  it('search without a query lists the most recently updated first; InMemoryStore keeps put order', async () => {
    const { reference, memoir } = both();
    for (const store of [reference, memoir]) {
      for (const key of ['first', 'second', 'third']) {
        await store.put(['ordered'], key, { key });
        await pause(3);
      }
      await store.put(['ordered'], 'first', { key: 'first', touched: true });
    }
    expect((await reference.search(['ordered'])).map((item) => item.key)).toEqual(['first', 'second', 'third']);
    expect((await memoir.search(['ordered'])).map((item) => item.key)).toEqual(['first', 'third', 'second']);
  });

  it('a query ranks the matches, then lists the rest without a score; InMemoryStore scores every item', async () => {
    const { reference, memoir } = both();
    for (const store of [reference, memoir]) {
      await store.put(['notes'], 'match', { text: 'The backup job runs at midnight.' });
      await store.put(['notes'], 'unrelated', { text: 'Bananas are yellow.' });
    }
    const ranked = await memoir.search(['notes'], { query: 'when does the backup job run?' });
    expect(ranked.map((item) => [item.key, typeof item.score])).toEqual([
      ['match', 'number'],
      ['unrelated', 'undefined'],
    ]);
    const scored = await reference.search(['notes'], { query: 'when does the backup job run?' });
    expect(scored.map((item) => typeof item.score)).toEqual(['number', 'number']);
    expect(scored[0]!.key).toBe('match');
  });

  it('values are JSON: undefined properties are left out; InMemoryStore keeps the object as given', async () => {
    const { reference, memoir } = both();
    const value = { text: 'kept', nickname: undefined, nested: { gone: undefined, here: 1 } };
    for (const store of [reference, memoir]) await store.put(['json'], 'k', value);
    expect(Object.keys((await memoir.get(['json'], 'k'))!.value)).toEqual(['text', 'nested']);
    expect((await memoir.get(['json'], 'k'))!.value).toStrictEqual({ text: 'kept', nested: { here: 1 } });
    expect(Object.keys((await reference.get(['json'], 'k'))!.value)).toEqual(['text', 'nickname', 'nested']);
  });

  it('a filter on an object or array compares it deeply; InMemoryStore compares by reference, so never matches', async () => {
    const { reference, memoir } = both();
    for (const store of [reference, memoir]) {
      await store.put(['deep'], 'k', { tags: ['a', 'b'], owner: { id: 7 } });
      await store.put(['deep'], 'other', { tags: ['a'], owner: { id: 8 } });
    }
    const filter = { tags: ['a', 'b'], owner: { id: 7 } };
    expect((await memoir.search(['deep'], { filter })).map((item) => item.key)).toEqual(['k']);
    expect(await reference.search(['deep'], { filter })).toEqual([]);
  });
});

describe.each(MEMOIR)('%s: what recall searches', (_name, makeMemoir) => {
  it('index: false keeps an item out of the ranking, an index path limits the text recall searches', async () => {
    const { store, memory } = makeMemoir();
    await store.put(['docs'], 'hidden', { text: 'Rotate the signing keys every quarter.' }, false);
    await store.put(['docs'], 'titled', { title: 'Holiday plans', body: 'Rotate the signing keys monthly.' }, [
      'title',
    ]);
    await store.put(['docs'], 'plain', { text: 'Rotate the signing keys after each incident.' });
    const results = await store.search(['docs'], { query: 'rotate the signing keys' });
    expect(results[0]).toMatchObject({ key: 'plain' });
    expect(typeof results[0]!.score).toBe('number');
    expect(results.slice(1).map((item) => item.score)).toEqual([undefined, undefined]);
    // memoir indexed the title alone for `titled`, and recall finds it by its title.
    const memories = await memory!.list({ categories: ['langgraph'] });
    expect(memories.find((m) => (m.metadata.langgraph as { key: string }).key === 'titled')!.content).toBe(
      'Holiday plans',
    );
    expect((await store.search(['docs'], { query: 'holiday plans', limit: 1 }))[0]!.key).toBe('titled');
  });
});
