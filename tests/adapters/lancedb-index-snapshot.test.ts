import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { makeMemory, unitVector } from 'memoir/testing';
import { describe, expect, it } from 'vitest';
import { createLanceStore, type LanceStore } from '../../src/adapters/lancedb/index.js';
import { exportRecords } from '../../src/core/backup/transfer.js';
import { createMemory } from '../../src/index.js';
import { useLocalS3 } from '../helpers/local-s3.js';
import { collect, freshPaths } from '../helpers/stores.js';

// memoir's search index over LanceDB, snapshotted beside the table: a second store on the same
// URI (its own connection and LanceDB session, as another process has) starts from the snapshot
// rather than the rows, follows the first store's later writes, and falls back to the rows when
// the snapshot is damaged, of another embedder, or gone — with the same answers either way.

const nextDir = freshPaths('lancedb-snapshot', '');
const s3 = useLocalS3();
let s3Prefix = 0;
const dims = 4;
const quiet = { log() {} };
const SNAPSHOT_TABLE = 'memories_search_snapshot';

type Location = { uri: string; storageOptions?: Record<string, string> };

const openStore = async (at: Location, embedder = 'e'): Promise<LanceStore> => {
  const store = createLanceStore({ ...at, search: 'memoir', indexSnapshotMinMemories: 1, logger: quiet });
  await store.open({ id: embedder, dimensions: dims });
  return store;
};

const lexical = (store: LanceStore, text: string) =>
  store.searchLexical({ text, limit: 10 }).then((hits) => hits.map((hit) => hit.id).sort());
const nearest = (store: LanceStore, axis: number) =>
  store.searchVector({ vector: unitVector(dims, axis), limit: 1 }).then((hits) => hits.map((hit) => hit.id));

/** Wait until the store has written `count` snapshots in the background. */
async function snapshotsWritten(store: LanceStore, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((store.searchIndexStats()?.snapshotsWritten ?? 0) < count) {
    if (Date.now() > deadline) throw new Error(`no snapshot written: ${JSON.stringify(store.searchIndexStats())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A writer that indexed three memories from rows and stored the snapshot. */
async function seeded(at: Location): Promise<LanceStore> {
  const writer = await openStore(at);
  await writer.put('memory', [
    { memory: makeMemory({ id: 'a', content: 'walnut harvest' }), embedding: unitVector(dims, 0) },
    { memory: makeMemory({ id: 'b', content: 'pecan harvest' }), embedding: unitVector(dims, 1) },
    { memory: makeMemory({ id: 'c', content: 'almond blossom' }), embedding: unitVector(dims, 2) },
  ]);
  expect(await lexical(writer, 'harvest')).toEqual(['a', 'b']);
  expect(writer.searchIndexStats()).toMatchObject({ loads: 1, restores: 0, lastLoadFrom: 'rows' });
  await snapshotsWritten(writer, 1);
  return writer;
}

async function secondStoreFollows(at: Location): Promise<void> {
  const writer = await seeded(at);
  const reader = await openStore(at);
  // Scored exactly in float32, though the snapshot holds only the int8 vectors.
  const [hit] = await reader.searchVector({ vector: unitVector(dims, 2), limit: 1 });
  expect(hit).toEqual({ id: 'c', score: expect.closeTo(1, 5) });
  expect(await lexical(reader, 'harvest')).toEqual(['a', 'b']);
  // Started from the snapshot: no load from the rows.
  expect(reader.searchIndexStats()).toMatchObject({ memories: 3, loads: 0, restores: 1, lastLoadFrom: 'snapshot' });

  // The first store's later writes and deletes reach the second by a catch-up, still no load.
  await writer.put('memory', [
    { memory: makeMemory({ id: 'd', content: 'hazelnut harvest' }), embedding: unitVector(dims, 3) },
    { memory: makeMemory({ id: 'a', content: 'walnut shells' }), embedding: unitVector(dims, 0) },
  ]);
  await writer.delete('memory', ['b']);
  expect(await lexical(reader, 'harvest')).toEqual(['d']);
  expect(await lexical(reader, 'shells')).toEqual(['a']);
  expect(await nearest(reader, 3)).toEqual(['d']);
  expect(await nearest(reader, 1)).not.toContain('b');
  const stats = reader.searchIndexStats()!;
  expect(stats).toMatchObject({ memories: 3, loads: 0, restores: 1 });
  expect(stats.catchUps).toBeGreaterThan(0);

  // A third store opened after those writes starts from the snapshot (from before them) and
  // catches up on them at once.
  const third = await openStore(at);
  expect(await lexical(third, 'harvest')).toEqual(['d']);
  expect(await nearest(third, 1)).not.toContain('b');
  expect(third.searchIndexStats()).toMatchObject({ memories: 3, loads: 0, restores: 1 });
  await Promise.all([writer.close(), reader.close(), third.close()]);
}

const readerScript = resolve(import.meta.dirname, 'fixtures/lancedb-snapshot-reader.ts');

/** One lexical search by a new process on `at`: the ids it found and its index's stats. */
async function searchInProcess(at: Location, text: string) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', readerScript, JSON.stringify(at), text, String(dims)],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout) as { ids: string[]; stats: Record<string, unknown> };
}

async function secondProcessFollows(at: Location): Promise<void> {
  const writer = await seeded(at);
  const first = await searchInProcess(at, 'harvest');
  expect(first.ids).toEqual(['a', 'b']);
  expect(first.stats).toMatchObject({ memories: 3, loads: 0, restores: 1, lastLoadFrom: 'snapshot' });
  await writer.put('memory', [
    { memory: makeMemory({ id: 'd', content: 'hazelnut harvest' }), embedding: unitVector(dims, 3) },
  ]);
  await writer.delete('memory', ['a']);
  const second = await searchInProcess(at, 'harvest');
  expect(second.ids).toEqual(['b', 'd']);
  expect(second.stats).toMatchObject({ memories: 3, loads: 0, restores: 1 });
  await writer.close();
}

describe('the LanceDB search index snapshot', () => {
  it('another process on the directory starts from the snapshot and sees the later writes and deletes', async () => {
    await secondProcessFollows({ uri: nextDir() });
  }, 120_000);

  it('another process on s3:// (s3rver) starts from the snapshot and sees the later writes and deletes', async () => {
    await secondProcessFollows({
      uri: `s3://${s3.bucket}/process-${++s3Prefix}`,
      storageOptions: s3.storageOptions(),
    });
  }, 120_000);

  it('a second store on the directory starts from the snapshot and follows the first', async () => {
    await secondStoreFollows({ uri: nextDir() });
  });

  it('a second store on s3:// (s3rver) starts from the snapshot and follows the first', async () => {
    await secondStoreFollows({ uri: `s3://${s3.bucket}/snapshot-${++s3Prefix}`, storageOptions: s3.storageOptions() });
  }, 120_000);

  it('a damaged snapshot is ignored: the index loads from the rows and answers the same', async () => {
    const uri = nextDir();
    const writer = await seeded({ uri });
    const expected = { harvest: await lexical(writer, 'harvest'), near: await nearest(writer, 1) };
    await writer.close();

    // Flip bytes inside every stored part, keeping the lengths: only the checksums tell.
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(uri);
    const table = await db.openTable(SNAPSHOT_TABLE);
    const rows = (await table.query().toArray()).map((row) => {
      const plain = row.toJSON() as { snapshot: string; part: string; chunk: number; data: Uint8Array };
      const data = Uint8Array.from(plain.data);
      for (let i = 0; i < data.length; i += 3) data[i] = data[i]! ^ 0x5a;
      return { ...plain, data };
    });
    await table.add(rows, { mode: 'overwrite' });
    table.close();
    db.close();

    const reader = await openStore({ uri });
    expect(await lexical(reader, 'harvest')).toEqual(expected.harvest);
    expect(await nearest(reader, 1)).toEqual(expected.near);
    expect(reader.searchIndexStats()).toMatchObject({ memories: 3, loads: 1, restores: 0, lastLoadFrom: 'rows' });
    // The damaged snapshot is replaced by a sound one, which the next store starts from.
    await snapshotsWritten(reader, 1);
    await reader.close();
    const next = await openStore({ uri });
    expect(await lexical(next, 'harvest')).toEqual(expected.harvest);
    expect(next.searchIndexStats()).toMatchObject({ loads: 0, restores: 1 });
    await next.close();
  });

  it("a snapshot of another embedder's vectors is not used; resetEmbeddings drops it", async () => {
    const uri = nextDir();
    const writer = await seeded({ uri });
    await writer.close();

    // Another embedder recorded in the meta table (as a process that re-embedded would leave it).
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(uri);
    const meta = await db.openTable('memories_meta');
    await meta
      .mergeInsert('key')
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute([{ key: 'embedder_id', value: 'other' }]);
    meta.close();
    const foreign = createLanceStore({ uri, search: 'memoir', indexSnapshotMinMemories: 1, logger: quiet });
    expect(await lexical(foreign, 'harvest')).toEqual(['a', 'b']);
    expect(foreign.searchIndexStats()).toMatchObject({ loads: 1, restores: 0 });
    await foreign.close();

    const resetting = await openStore({ uri }, 'other');
    await resetting.resetEmbeddings({ id: 'third', dimensions: dims });
    expect(await db.tableNames()).not.toContain(SNAPSHOT_TABLE);
    await resetting.close();
    db.close();
  });

  it('clearAll and restore through a client are seen by a store that started from the snapshot; export leaves the snapshot out', async () => {
    const uri = nextDir();
    const backupDirectory = join(nextDir(), 'backups');
    const stores: LanceStore[] = [];
    const memoryOn = () => {
      const store = createLanceStore({ uri, search: 'memoir', indexSnapshotMinMemories: 1, logger: quiet });
      stores.push(store);
      return createMemory({ store, backupDirectory, logger: quiet });
    };
    const first = memoryOn();
    await first.retain(['The deploy key lives in the vault', 'Lunch is at noon on Fridays']);
    expect((await first.recall('deploy key', { k: 1 })).results[0]?.memory.content).toBe(
      'The deploy key lives in the vault',
    );
    const backup = await first.backup();
    // Closed before the snapshot's delay is up: close writes it.
    await first.close();
    expect(stores[0]!.searchIndexStats()).toMatchObject({ loads: 1, snapshotsWritten: 1 });

    const second = memoryOn();
    expect((await second.recall('deploy key', { k: 1 })).results).toHaveLength(1);
    expect(stores[1]!.searchIndexStats()).toMatchObject({ loads: 0, restores: 1 });
    await second.clearAll({ confirm: true });
    expect((await second.recall('deploy key', { k: 1 })).results).toEqual([]);
    await second.restore(backup.path, { confirm: true });
    expect((await second.recall('deploy key', { k: 1 })).results[0]?.memory.content).toBe(
      'The deploy key lives in the vault',
    );
    expect(stores[1]!.searchIndexStats()).toMatchObject({ restores: 1 });
    await second.close();

    const store = createLanceStore({ uri, search: 'memoir', logger: quiet });
    const lines = await collect(exportRecords(store));
    // A header and the two memories: nothing of the index.
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toMatch(/slots\.|postings\.|search_snapshot/);
    await store.close();
  });
});
