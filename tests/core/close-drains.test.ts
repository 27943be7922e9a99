import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory, StoreError } from '../../src/index.js';
import { quiet, STORES } from '../helpers/stores.js';

// close() lets every call already started finish, then refuses new ones.

describe.each(STORES)('close() drains calls in flight (%s)', (_name, makeStore) => {
  it('1,000 retains started before close() all succeed, and a retain after it is refused', async () => {
    const store = makeStore();
    const memory = createMemory({ store, logger: quiet });
    const calls = Array.from({ length: 1000 }, (_, index) => memory.retain(`memory number ${index}`));
    const recalls = Array.from({ length: 20 }, () => memory.recall('memory number'));
    const closing = memory.close();
    const settled = await Promise.allSettled([...calls, ...recalls]);
    await closing;
    expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
    await expect(memory.retain('too late')).rejects.toThrow(StoreError);
    expect(() => memory.retainAsync('too late')).toThrow(/closed/);

    // A persistent store kept every acknowledged write.
    const path = (store as { path?: unknown }).path;
    if (typeof path === 'string') {
      const reopened = createMemory({ store: createSqliteStore({ path }), logger: quiet });
      expect((await reopened.stats()).memories).toBe(1000);
      await reopened.close();
    }
    // 1,000 one-memory transactions: LanceDB writes a manifest per commit (~20–40 ms a retain here).
    // LanceDB logs each transaction's rows before writing them (seven commits a retain, so a
    // kill cannot leave half of one): 1,000 retains take a minute alone, more on a busy machine.
  }, 300_000);

  it('background work queued by calls in flight is done before close() resolves', async () => {
    const memory = createMemory({ store: makeStore(), logger: quiet });
    await memory.retain(['alpha one', 'alpha two']);
    const recall = memory.recall('alpha');
    await memory.close();
    const { results } = await recall;
    expect(results.length).toBe(2);
  });
});
