import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/index.js';
import {
  canonicalJson,
  decodeEmbedding,
  encodeEmbedding,
  exportRecords,
  importRecords,
} from '../../src/core/backup/transfer.js';
import { ValidationError } from '../../src/core/spec/errors.js';
import type { EmbedderIdentity } from '../../src/core/spec/store.js';
import {
  day,
  TRANSFER_EMBEDDER as EMBEDDER,
  makeMemory,
  makeOpinion,
  seedEveryKind,
} from '../contracts/memory-fixtures.js';
import type { FullStore } from '../helpers/stores.js';
import { collect } from '../helpers/stores.js';

async function openStore(embedder: EmbedderIdentity = EMBEDDER): Promise<FullStore> {
  const store = createInMemoryStore();
  await store.open(embedder);
  return store;
}

/** A store holding memories of every shape, one of each record kind, and embeddings. */
async function seededStore(): Promise<FullStore> {
  const store = await openStore();
  await seedEveryKind(store, {
    opinion: {
      source: { file: 'memory/2025-11-20.md', line: 4 },
      metadata: { nested: { z: 1, a: [1, 'two', null, { y: true, b: false }] }, manual_save: true },
      validTo: day(3),
      invalidationReason: 'corrected',
      lastAccessedAt: day(4),
      accessCount: 3,
    },
    unembedded: { createdAt: day(1), content: 'Same createdAt, sorted by id.' },
    opinionRecord: { history: [{ at: day(1), from: 0.5, to: 0.7, reason: 'seen twice', memoryId: null }] },
  });
  return store;
}

describe('canonicalJson', () => {
  it('sorts keys recursively and drops undefined properties', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"f":1}]},"b":1}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  it('refuses what JSON cannot hold exactly', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(TypeError);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/circular/);
  });
});

describe('embedding encoding', () => {
  it('round-trips every bit, including -0, subnormals and NaN payloads', () => {
    const vector = new Float32Array([0, -0, 1.5, -3.25e-40, 3.4028234663852886e38, Number.NaN]);
    new Uint32Array(vector.buffer)[5] = 0x7fc12345;
    const decoded = decodeEmbedding(encodeEmbedding(vector), vector.length)!;
    expect(new Uint32Array(decoded.buffer)).toEqual(new Uint32Array(vector.buffer));
  });

  it('is little-endian base64', () => {
    expect(encodeEmbedding(new Float32Array([1]))).toBe('AACAPw==');
  });

  it('rejects the wrong length and malformed base64', () => {
    const text = encodeEmbedding(new Float32Array([1, 2]));
    expect(decodeEmbedding(text, 3)).toBeNull();
    expect(decodeEmbedding('AAC*Pw==', 1)).toBeNull();
    expect(decodeEmbedding('AACAPw', 1)).toBeNull();
  });
});

describe('exportRecords', () => {
  it('writes a header, memories by createdAt then id, then each collection', async () => {
    const store = await seededStore();
    const lines = await collect(exportRecords(store, { embedder: EMBEDDER }));
    expect(lines[0]).toBe(
      '{"type":"header","format":"memoir-jsonl","version":1,"embedder":{"dimensions":8,"id":"test:hash"}}',
    );
    const types = lines.map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(['header', 'memory', 'memory', 'memory', 'opinion', 'procedure', 'session', 'entity']);
    const memories = lines.slice(1, 4).map((line) => JSON.parse(line).memory as { createdAt: string; id: string });
    const sorted = [...memories].sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
    );
    expect(memories).toEqual(sorted);
    for (const line of lines) expect(line).not.toContain('\n');
  });

  it('pages through the store and reports progress', async () => {
    const store = await openStore();
    await store.put(
      'memory',
      Array.from({ length: 25 }, (_, index) => ({ memory: makeMemory({ createdAt: day(index) }), embedding: null })),
    );
    const calls: Array<[number, number]> = [];
    const lines = await collect(
      exportRecords(store, { pageSize: 10, onProgress: (done, total) => calls.push([done, total]) }),
    );
    expect(lines).toHaveLength(26);
    expect(calls).toEqual([
      [10, 25],
      [20, 25],
      [25, 25],
    ]);
  });

  it('without an embedder writes a null header embedder and null embeddings', async () => {
    const store = await seededStore();
    const lines = await collect(exportRecords(store));
    expect(JSON.parse(lines[0]!).embedder).toBeNull();
    for (const line of lines.slice(1, 4)) expect(JSON.parse(line).embedding).toBeNull();
  });

  it('applies the filter to memories and its scope to records', async () => {
    const store = await seededStore();
    await store.put('opinion', [makeOpinion({ scope: { userId: 'u1' } })]);
    const lines = await collect(exportRecords(store, { filter: { scope: { userId: 'u1' } } }));
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(['header', 'memory', 'opinion']);
  });
});

describe('importRecords', () => {
  it('round-trips byte for byte (apart from line order), records of every collection included', async () => {
    const source = await seededStore();
    const exported = await collect(exportRecords(source, { embedder: EMBEDDER }));
    const target = await openStore();
    const shuffled = [exported[0]!, ...exported.slice(1).reverse()];
    const result = await importRecords(target, shuffled, { embedder: EMBEDDER });
    expect(result).toEqual({ memories: 3, records: 4, skippedEmbeddings: 0, skippedLines: 0, invalidLines: [] });
    const again = await collect(exportRecords(target, { embedder: EMBEDDER }));
    expect(again).toEqual(exported);
    expect([...again].sort()).toEqual([...exported].sort());
    expect(await target.stats()).toMatchObject({ memories: 3, opinions: 1, procedures: 1, sessions: 1, entities: 1 });
  });

  it('preserves embeddings bit-exactly', async () => {
    const source = await seededStore();
    const ids = (await source.list('memory')).map((memory) => memory.id);
    const target = await openStore();
    await importRecords(target, exportRecords(source, { embedder: EMBEDDER }), { embedder: EMBEDDER });
    const before = await source.getEmbeddings(ids);
    const after = await target.getEmbeddings(ids);
    expect(after.size).toBe(2);
    for (const [id, vector] of before) {
      expect(new Uint32Array(after.get(id)!.buffer)).toEqual(new Uint32Array(vector.buffer));
    }
  });

  it('accepts a whole file as one string, CRLF line ends and blank lines', async () => {
    const source = await seededStore();
    const text = `${(await collect(exportRecords(source, { embedder: EMBEDDER }))).join('\r\n')}\r\n\r\n`;
    const target = await openStore();
    expect(await importRecords(target, [text], { embedder: EMBEDDER })).toEqual({
      memories: 3,
      records: 4,
      skippedEmbeddings: 0,
      skippedLines: 0,
      invalidLines: [],
    });
  });

  it('skips embeddings from a different embedder (id or dimensions) and imports the memories', async () => {
    const exported = await collect(exportRecords(await seededStore(), { embedder: EMBEDDER }));
    for (const other of [
      { id: 'openai:text-embedding-3-small', dimensions: 8 },
      { id: EMBEDDER.id, dimensions: 16 },
    ]) {
      const target = await openStore(other);
      const result = await importRecords(target, exported, { embedder: other });
      expect(result).toEqual({ memories: 3, records: 4, skippedEmbeddings: 2, skippedLines: 0, invalidLines: [] });
      const ids = (await target.list('memory')).map((memory) => memory.id);
      expect((await target.getEmbeddings(ids)).size).toBe(0);
    }
  });

  it('skips embeddings when the file has no header', async () => {
    const exported = await collect(exportRecords(await seededStore(), { embedder: EMBEDDER }));
    const result = await importRecords(await openStore(), exported.slice(1), { embedder: EMBEDDER });
    expect(result.skippedEmbeddings).toBe(2);
    expect(result.memories).toBe(3);
  });

  it('rejects a bad line with its number and field, writing nothing of its batch', async () => {
    const exported = await collect(exportRecords(await seededStore(), { embedder: EMBEDDER }));
    const bad = JSON.parse(exported[3]!);
    bad.memory.importance = 3;
    const lines = [...exported.slice(0, 3), JSON.stringify(bad), ...exported.slice(4)];
    const target = await openStore();
    const error = await importRecords(target, lines, { embedder: EMBEDDER, batchSize: 100 }).catch((e: unknown) => e);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe('line 4: memory.importance');
    expect((error as ValidationError).message).toMatch(/line 4: memory\.importance: .*<=\s?1/);
    expect(await target.stats()).toMatchObject({ memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 });
  });

  it('writes nothing, not even earlier batches, when a later line fails', async () => {
    const exported = await collect(exportRecords(await seededStore(), { embedder: EMBEDDER }));
    const target = await openStore();
    const error = await importRecords(target, [...exported, '{"type":"memory"'], {
      embedder: EMBEDDER,
      batchSize: 2,
    }).catch((e: unknown) => e);
    expect((error as ValidationError).message).toMatch(/line 9: not valid JSON/);
    // 7 items in batches of 2: the three full batches written before the bad line are undone too.
    const stats = await target.stats();
    expect(stats.memories + stats.opinions + stats.procedures + stats.sessions + stats.entities).toBe(0);
  });

  it.each([
    ['{"type":"gossip"}', 'line 2: type'],
    ['[1,2]', 'line 2: type'],
    ['{"type":"opinion","record":{"id":"x"}}', 'line 2: record.statement'],
    ['{"type":"header","format":"memoir-jsonl","version":1,"embedder":null}', 'line 2: type'],
  ])('rejects %s', async (line, field) => {
    const header = '{"type":"header","format":"memoir-jsonl","version":1,"embedder":null}';
    const error = await importRecords(await openStore(), [header, line], { embedder: EMBEDDER }).catch(
      (e: unknown) => e,
    );
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe(field);
  });

  it('rejects a header from a newer format version, naming the fix', async () => {
    const error = await importRecords(
      await openStore(),
      ['{"type":"header","format":"memoir-jsonl","version":2,"embedder":null}'],
      { embedder: EMBEDDER },
    ).catch((e: unknown) => e);
    expect((error as ValidationError).field).toBe('line 1: version');
    expect((error as ValidationError).suggestion).toMatch(/newer memoir/);
  });

  it('rejects an embedding whose length does not match the header', async () => {
    const exported = await collect(exportRecords(await seededStore(), { embedder: EMBEDDER }));
    const line = JSON.parse(exported.find((text) => JSON.parse(text).embedding)!);
    line.embedding = encodeEmbedding(new Float32Array(4));
    const error = await importRecords(await openStore(), [exported[0]!, JSON.stringify(line)], {
      embedder: EMBEDDER,
    }).catch((e: unknown) => e);
    expect((error as ValidationError).field).toBe('line 2: embedding');
  });
});

describe('importRecords: input and scope', () => {
  it('refuses what is not lines of text with a ValidationError, and takes a whole file as one string', async () => {
    const store = await openStore();
    for (const input of [null, 42, undefined, {}, Symbol('x')]) {
      const error = await importRecords(store, input as never, { embedder: EMBEDDER }).catch((e: unknown) => e);
      expect(ValidationError.isInstance(error), String(error)).toBe(true);
      expect((error as ValidationError).field).toBe('lines');
    }
    const source = await seededStore();
    const text = (await collect(exportRecords(source, { embedder: EMBEDDER }))).join('\n');
    await importRecords(store, text, { embedder: EMBEDDER });
    expect(await collect(exportRecords(store, { embedder: EMBEDDER }))).toEqual(
      await collect(exportRecords(source, { embedder: EMBEDDER })),
    );
  });

  it('with a scope, refuses a line of another scope or one replacing another scope’s record, naming the line', async () => {
    const store = await openStore();
    const mine = makeMemory({ scope: { userId: 'alice' } });
    const theirs = makeMemory({ scope: { userId: 'bob' } });
    await store.put('memory', [{ memory: theirs, embedding: null }]);
    const line = (memory: typeof mine) => `{"type":"memory","memory":${canonicalJson(memory)},"embedding":null}`;
    const scope = { userId: 'alice' };

    const other = await importRecords(store, [line(mine), line(theirs)], { embedder: EMBEDDER, scope }).catch(
      (e: unknown) => e,
    );
    expect((other as Error).message).toMatch(/line 2: memory\.scope: expected a scope within \{"userId":"alice"\}/);

    const hijack = { ...mine, id: theirs.id };
    const clash = await importRecords(store, [line(hijack)], { embedder: EMBEDDER, scope }).catch((e: unknown) => e);
    expect(ValidationError.isInstance(clash)).toBe(true);
    expect((clash as Error).message).toMatch(/line 1: memory\.id: expected an id not already used outside/);
    expect((await store.get('memory', [theirs.id]))[0]).toEqual(theirs);

    const opinion = makeOpinion({ scope: { userId: 'bob' } });
    await store.put('opinion', [opinion]);
    const recordLine = `{"type":"opinion","record":${canonicalJson({ ...opinion, scope })}}`;
    const recordClash = await importRecords(store, [recordLine], { embedder: EMBEDDER, scope }).catch(
      (e: unknown) => e,
    );
    expect((recordClash as Error).message).toMatch(/line 1: record\.id: expected an id not already used outside/);

    expect(await importRecords(store, [line(mine)], { embedder: EMBEDDER, scope })).toMatchObject({ memories: 1 });
  });
});
