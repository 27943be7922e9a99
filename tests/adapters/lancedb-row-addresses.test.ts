import { makeMemory, unitVector } from 'memoir/testing';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { RowAddresses } from '../../src/adapters/lancedb/lancedb-row-addresses.js';
import { freshPaths } from '../helpers/stores.js';

// Recall reads its best candidates right after searching; the store takes them by the row
// address the search returned instead of filtering on `id`. An address is only a hint: these
// cases change, delete, move and replace the rows between the search and the read, and the
// read must still return each memory as it is now, or nothing when it is gone.

const nextDir = freshPaths('lancedb-row-addresses', '');
const quiet = { log() {} };
const record = (index: number, content = `memory number ${index} about gardening`) => ({
  memory: makeMemory({ id: `m${String(index).padStart(3, '0')}`, content }),
  embedding: unitVector(16, index + 1),
});

async function openStore() {
  const store = createLanceStore({ uri: nextDir(), logger: quiet, index: { background: false } });
  await store.open({ id: 'e', dimensions: 16 });
  await store.put(
    'memory',
    Array.from({ length: 30 }, (_, index) => record(index)),
  );
  return store;
}

async function searched(store: Awaited<ReturnType<typeof openStore>>) {
  const lexical = await store.searchLexical({ text: 'gardening', limit: 30 });
  const vector = await store.searchVector({ vector: unitVector(16, 3), limit: 30 });
  return [...new Set([...lexical, ...vector].map((hit) => hit.id))];
}

describe('LanceDB reads by row address after a search', () => {
  it('returns each found memory as it is now after an update, and nothing for one deleted since', async () => {
    const store = await openStore();
    const ids = await searched(store);
    expect(ids).toHaveLength(30);
    await store.put('memory', [record(4, 'memory number 4, rewritten')]);
    await store.delete('memory', ['m007']);
    const read = await store.get('memory', ids);
    expect(read.map((memory) => memory.id)).toEqual(ids.filter((id) => id !== 'm007'));
    expect(read.find((memory) => memory.id === 'm004')!.content).toBe('memory number 4, rewritten');
    await store.close();
  });

  it('finds every memory after compaction moved the rows', async () => {
    const store = await openStore();
    const ids = await searched(store);
    await store.put('memory', [record(1, 'changed so compaction has work')]);
    await store.optimize();
    const read = await store.get('memory', ids);
    expect(read.map((memory) => memory.id).sort()).toEqual([...ids].sort());
    await store.close();
  });

  it('returns no stale memory after a staged change replaced every row with others', async () => {
    const store = await openStore();
    const ids = await searched(store);
    // A whole-store restore: the staged rows replace the live ones in one switch.
    const change = await store.stageChange({ replace: {} });
    await change.upsertMemories(Array.from({ length: 30 }, (_, index) => record(100 + index)));
    await change.commit();
    expect(await store.get('memory', ids)).toEqual([]);
    const refilled = await store.get('memory', ['m100', 'm129']);
    expect(refilled.map((memory) => memory.id)).toEqual(['m100', 'm129']);
    await store.close();
  });

  it('keeps only a bounded number of addresses, the most recent', () => {
    const addresses = new RowAddresses();
    addresses.note(Array.from({ length: 5000 }, (_, index) => ({ id: `m${index}`, _rowid: BigInt(index) })));
    const { addresses: known, unknown } = addresses.lookup(['m0', 'm4999']);
    expect(unknown).toEqual(['m0']);
    expect(known).toEqual([4999n]);
    expect(addresses.holds({ id: 'm4999', _rowid: 4999n })).toBe(true);
    expect(addresses.holds({ id: 'm4999', _rowid: 1n })).toBe(false);
  });
});
