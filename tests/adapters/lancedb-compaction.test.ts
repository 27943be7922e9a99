import { execFileSync } from 'node:child_process';
import { makeMemory, unitVector } from 'memoir/testing';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { freshPaths } from '../helpers/stores.js';

const nextDir = freshPaths('lancedb-compaction', '');
const diskBytes = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
const quiet = { log() {} };

async function tableVersion(uri: string): Promise<number> {
  const lancedb = await import('@lancedb/lancedb');
  const db = await lancedb.connect(uri);
  const table = await db.openTable('memories');
  const version = await table.version();
  db.close();
  return version;
}

const batch = (from: number, count: number) =>
  Array.from({ length: count }, (_, offset) => ({
    memory: makeMemory({ id: `m${String(from + offset).padStart(5, '0')}`, content: `memory number ${from + offset}` }),
    embedding: unitVector(32, from + offset + 1),
  }));

describe('LanceDB table size', () => {
  it('compaction and cleanup keep a table written in many small commits within 1.5x of the same rows written at once', async () => {
    const index = { background: false, keepVersionsMs: 0 };
    const reference = nextDir();
    const once = createLanceStore({ uri: reference, logger: quiet, index });
    await once.open({ id: 'e', dimensions: 32 });
    await once.put('memory', batch(0, 600));
    await once.optimize();
    await once.close();

    const uri = nextDir();
    const store = createLanceStore({ uri, logger: quiet, index });
    await store.open({ id: 'e', dimensions: 32 });
    for (let from = 0; from < 600; from += 20) await store.put('memory', batch(from, 20));
    // Rewrite a third of them, as updates do: every old copy is garbage once compacted.
    for (let from = 0; from < 200; from += 40) await store.put('memory', batch(from, 40));
    const before = diskBytes(uri);
    await store.optimize();
    const after = diskBytes(uri);
    expect(await store.count()).toBe(600);
    await store.close();
    expect(after).toBeLessThan(before);
    expect(after).toBeLessThanOrEqual(1.5 * diskBytes(reference));
  }, 60_000);

  it('accesses recorded by many recalls become one table version, not one each', async () => {
    const uri = nextDir();
    const store = createLanceStore({ uri, logger: quiet, index: { background: false } });
    await store.open({ id: 'e', dimensions: 32 });
    await store.put('memory', batch(0, 50));
    const start = await tableVersion(uri);
    for (let i = 0; i < 40; i++)
      await store.recordAccess(
        [`m${String(i).padStart(5, '0')}`, 'm00049'],
        new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      );
    expect(await tableVersion(uri)).toBe(start);
    expect((await store.get('memory', ['m00049']))[0]!.accessCount).toBe(40);
    await store.close();
    expect(await tableVersion(uri)).toBe(start + 1);
    const reopened = createLanceStore({ uri, logger: quiet });
    expect((await reopened.get('memory', ['m00049', 'm00003'])).map((memory) => memory.accessCount)).toEqual([40, 1]);
    await reopened.close();
  });

  it('a scheduled round compacts a store whose writes stayed under every threshold', async () => {
    const lancedb = await import('@lancedb/lancedb');
    const fragmentsAfterWrites = async (compactEveryMs: number) => {
      const uri = nextDir();
      const store = createLanceStore({ uri, logger: quiet, index: { compactEveryMs, keepVersionsMs: 0 } });
      await store.open({ id: 'e', dimensions: 32 });
      for (let from = 0; from < 50; from += 10) await store.put('memory', batch(from, 10));
      const db = await lancedb.connect(uri);
      const table = await db.openTable('memories');
      const fragments = async () => {
        await table.checkoutLatest();
        return (await table.stats()).fragmentStats.numFragments;
      };
      const done = async () => {
        db.close();
        await store.close();
      };
      return { fragments, done };
    };
    // Without a schedule, five commits of ten rows stay five fragments: under every threshold.
    const unscheduled = await fragmentsAfterWrites(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await unscheduled.fragments()).toBeGreaterThanOrEqual(5);
    await unscheduled.done();
    const scheduled = await fragmentsAfterWrites(200);
    // Compacted by the timer alone (a write landing during a round may leave a second fragment).
    await expect.poll(scheduled.fragments, { timeout: 20_000, interval: 200 }).toBeLessThanOrEqual(2);
    await scheduled.done();
  });
});
