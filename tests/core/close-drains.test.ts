import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory, StoreError } from '../../src/index.js';
import { quiet, STORES } from '../helpers/stores.js';

// close() lets every call already started finish, then refuses new ones.

// A LanceDB retain is seven commits (its rows are logged before they are written, so a kill
// cannot leave half of one), 20–70 ms on a quiet machine and 270 ms in CI beside the other
// jobs (250 of them took 67 s there): 60 retains in flight queue behind its write lock and drain
// the same way 1,000 do on the others.
const IN_FLIGHT: Record<string, number> = { lancedb: 60 };

describe.each(STORES)('close() drains calls in flight (%s)', (name, makeStore) => {
  const count = IN_FLIGHT[name] ?? 1000;
  it(`${count.toLocaleString('en')} retains started before close() all succeed, and a retain after it is refused`, async () => {
    const store = makeStore();
    const memory = createMemory({ store, logger: quiet });
    const calls = Array.from({ length: count }, (_, index) => memory.retain(`memory number ${index}`));
    const recalls = Array.from({ length: 20 }, () => memory.recall('memory number'));
    const closing = memory.close();
    const settled = await Promise.allSettled([...calls, ...recalls]);
    await closing;
    expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
    await expect(memory.retain('too late')).rejects.toThrow(StoreError);
    expect(() => memory.retainAsync('too late')).toThrow(/closed/);

    // A persistent store kept every acknowledged write.
    const { path, uri } = store as { path?: unknown; uri?: unknown };
    const again =
      typeof path === 'string'
        ? createSqliteStore({ path })
        : typeof uri === 'string'
          ? createLanceStore({ uri })
          : null;
    if (again) {
      const reopened = createMemory({ store: again, logger: quiet });
      expect((await reopened.stats()).memories).toBe(count);
      await reopened.close();
    }
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
