// A memoir store of your own, written only against the public port: the seven required
// functions (`open`, `close`, `get`, `put`, `delete`, `list`, `getEmbeddings`) over Maps, kept in
// one JSON file. The kit (`memoir/store-kit`) brings the closed state, the write queue and the
// filter/order/page semantics, so each function is a few lines. memoir derives the rest — counts,
// stats, access counts, search by scanning — and serialises the writes itself, since the store
// has no transaction(). json-store.test.ts runs the shipped contracts against it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import {
  type EmbedderIdentity,
  type ListQuery,
  type Memory,
  type MemoryRecord,
  type MemoryStore,
  type RecordKind,
  type StoredRecord,
  StoreError,
  type WrittenRecord,
} from 'memoir';
import { createStoreGate, listMemoriesIn, listRecordsIn } from 'memoir/store-kit';

type Keyed = { id: string; scope: Memory['scope'] };

/** What the file holds: every record by kind and id, the vectors as plain arrays, the embedder. */
interface FileContents {
  embedder: EmbedderIdentity | null;
  records: Record<RecordKind, Record<string, Keyed>>;
  embeddings: Record<string, number[]>;
}

const KINDS: readonly RecordKind[] = ['memory', 'opinion', 'procedure', 'session', 'entity'];

/** A store kept in the JSON file at `path` (created on the first write). */
export function createJsonStore(path: string): MemoryStore {
  const name = 'json-store';
  const gate = createStoreGate({ name, where: path });
  const records = new Map(KINDS.map((kind) => [kind, new Map<string, Keyed>()]));
  const embeddings = new Map<string, Float32Array>();
  let embedder: EmbedderIdentity | null = null;

  if (existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as FileContents;
    embedder = saved.embedder;
    for (const kind of KINDS) {
      for (const [id, record] of Object.entries(saved.records[kind])) records.get(kind)!.set(id, record);
    }
    for (const [id, vector] of Object.entries(saved.embeddings)) embeddings.set(id, Float32Array.from(vector));
  }

  // Every write rewrites the file whole: written beside it, then renamed over it, so a crash
  // leaves the old file or the new one.
  const save = () => {
    const contents: FileContents = {
      embedder,
      records: Object.fromEntries(KINDS.map((kind) => [kind, Object.fromEntries(records.get(kind)!)])) as never,
      embeddings: Object.fromEntries([...embeddings].map(([id, vector]) => [id, [...vector]])),
    };
    writeFileSync(`${path}.tmp`, JSON.stringify(contents));
    renameSync(`${path}.tmp`, path);
  };
  const refuse = (message: string, suggestion = 'Embed with the embedder the store was opened with.') =>
    new StoreError(message, { component: name, suggestion });
  const heldDimensions = (): number | null => embeddings.values().next().value?.length ?? null;

  return {
    specificationVersion: 'v2',
    name,
    // Survives a restart; one process at a time (two would overwrite each other's file).
    capabilities: { persistent: true, crossProcess: 'none' },

    open: (identity) =>
      gate.write(() => {
        const held = heldDimensions();
        if (held !== null && (identity.dimensions !== held || (embedder !== null && embedder.id !== identity.id))) {
          throw refuse(
            `${path} holds vectors of "${embedder?.id}" (${held} dimensions), not of "${identity.id}" (${identity.dimensions})`,
            'Run `memoir reindex`, or open the store with the embedder it was built with.',
          );
        }
        embedder = { id: identity.id, dimensions: identity.dimensions };
        save();
      }),

    close: () => gate.close(),

    get: <K extends RecordKind>(kind: K, ids: readonly string[]) =>
      gate.read(() => ids.flatMap((id) => structuredClone(records.get(kind)!.get(id) ?? [])) as StoredRecord<K>[]),

    put: <K extends RecordKind>(kind: K, batch: readonly WrittenRecord<K>[]) =>
      gate.write(() => {
        if (kind !== 'memory') {
          for (const record of structuredClone(batch) as readonly unknown[] as Keyed[])
            records.get(kind)!.set(record.id, record);
          return save();
        }
        // The whole batch is checked before any of it is written: a bad record writes nothing.
        const dimensions = embedder?.dimensions ?? heldDimensions();
        for (const { memory, embedding } of batch as readonly MemoryRecord[]) {
          if (embedding && dimensions !== null && embedding.length !== dimensions) {
            throw refuse(`memory "${memory.id}": expected ${dimensions} dimensions, got ${embedding.length}`);
          }
        }
        for (const { memory, embedding } of batch as readonly MemoryRecord[]) {
          records.get('memory')!.set(memory.id, structuredClone(memory));
          if (embedding) embeddings.set(memory.id, new Float32Array(embedding));
          else embeddings.delete(memory.id);
        }
        save();
      }),

    delete: (kind, ids) =>
      gate.write(() => {
        let deleted = 0;
        for (const id of new Set(ids)) {
          if (records.get(kind)!.delete(id)) deleted += 1;
          if (kind === 'memory') embeddings.delete(id);
        }
        save();
        return deleted;
      }),

    list: <K extends RecordKind>(kind: K, query?: ListQuery<K>) =>
      gate.read(() => {
        const held = records.get(kind)!.values();
        const found =
          kind === 'memory' ? listMemoriesIn(held as Iterable<Memory>, query) : listRecordsIn(held, query as never);
        return structuredClone(found) as StoredRecord<K>[];
      }),

    getEmbeddings: (ids) =>
      gate.read(() => {
        const found = new Map<string, Float32Array>();
        for (const id of ids) {
          const vector = embeddings.get(id);
          if (vector) found.set(id, new Float32Array(vector));
        }
        return found;
      }),
  };
}
