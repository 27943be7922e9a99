import { makeMemory, unitVector } from 'memoir/testing';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { partitionsFor } from '../../src/adapters/lancedb/lancedb-maintenance.js';
import { freshPaths } from '../helpers/stores.js';

const nextDir = freshPaths('lancedb-index-choice', '');

const records = (from: number, count: number, dims: number) =>
  Array.from({ length: count }, (_, offset) => {
    const i = from + offset;
    return {
      memory: makeMemory({ id: `m${String(i).padStart(5, '0')}`, scope: { userId: `user-${i % 20}` } }),
      embedding: unitVector(dims, i + 1),
    };
  });

describe('LanceDB vector index choice', () => {
  it('gives flat and PQ indexes about √n partitions and HNSW indexes one per 250,000 rows', () => {
    expect(partitionsFor(100_000, 'ivf-flat')).toBe(316);
    expect(partitionsFor(1_000_000, 'ivf-pq')).toBe(1000);
    expect(partitionsFor(100_000, 'ivf-hnsw-sq')).toBe(1);
    expect(partitionsFor(1_000_000, 'ivf-hnsw-pq')).toBe(4);
    expect(partitionsFor(10, 'ivf-flat')).toBe(3);
  });

  it('builds an IVF_HNSW_PQ index when asked, and scoped searches through it stay inside the scope', async () => {
    const store = createLanceStore({
      search: 'native',
      uri: nextDir(),
      logger: { log() {} },
      index: { vector: 'ivf-hnsw-pq', vectorIndexMinRows: 256, background: false },
    });
    await store.open({ id: 'e', dimensions: 16 });
    await store.put('memory', records(0, 400, 16));
    await store.optimize();
    expect((await store.check()).details?.indexes).toMatch(/vector_idx \(IvfHnswPq\)/i);
    const hits = await store.searchVector({
      vector: unitVector(16, 5),
      limit: 10,
      filter: { scope: { userId: 'user-3' } },
    });
    expect(hits).toHaveLength(10);
    expect(hits.every((hit) => Number(hit.id.slice(1)) % 20 === 3)).toBe(true);
    await store.close();
  });

  it('trains the vector index again once the table holds twice the rows it was trained on', async () => {
    const built: unknown[] = [];
    const store = createLanceStore({
      search: 'native',
      uri: nextDir(),
      logger: {
        log: (_level: string, message: string, data?: unknown) => /built the/.test(message) && built.push(data),
      },
      index: { vectorIndexMinRows: 256, background: false },
    });
    await store.open({ id: 'e', dimensions: 8 });
    await store.put('memory', records(0, 300, 8));
    await store.optimize();
    expect(built).toEqual([expect.objectContaining({ rows: 300 })]);
    // Half again as many: folded into the partitions it has.
    await store.put('memory', records(300, 150, 8));
    await store.optimize();
    expect(built).toHaveLength(1);
    // Twice as many: trained again on all of them.
    await store.put('memory', records(450, 200, 8));
    await store.optimize();
    expect(built).toEqual([expect.objectContaining({ rows: 300 }), expect.objectContaining({ rows: 650 })]);
    expect(await store.searchVector({ vector: unitVector(8, 600), limit: 1 })).toEqual([
      { id: 'm00599', score: expect.closeTo(1, 5) },
    ]);
    await store.close();
  });

  it('probes more partitions than LanceDB allows by default (20) when nprobes asks for them', async () => {
    const store = createLanceStore({
      search: 'native',
      uri: nextDir(),
      logger: { log() {} },
      index: { vectorIndexMinRows: 256, background: false, nprobes: 50 },
    });
    await store.open({ id: 'e', dimensions: 8 });
    await store.put('memory', records(0, 300, 8));
    await store.optimize();
    const hits = await store.searchVector({ vector: unitVector(8, 11), limit: 3 });
    expect(hits[0]).toEqual({ id: 'm00010', score: expect.closeTo(1, 5) });
    await store.close();
  });

  it('indexes the scope columns with bitmaps', async () => {
    const store = createLanceStore({
      search: 'native',
      uri: nextDir(),
      logger: { log() {} },
    });
    await store.open({ id: 'e', dimensions: 8 });
    const indexes = String((await store.check()).details?.indexes);
    for (const column of ['user_id', 'agent_id', 'namespace']) expect(indexes).toContain(`${column}_idx (Bitmap)`);
    await store.close();
  });
});
