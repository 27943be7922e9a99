import type { Memory } from '../../core/spec/memory.js';
import type { EmbedderIdentity, StoreCheck } from '../../core/spec/store.js';
import type { Bm25Index } from '../../core/text/bm25-index.js';
import { lexicalText } from '../../core/text/memory-text.js';
import type { CollectionRecord } from './in-memory-collection.js';

// Process memory cannot be torn like a file, but the store's maps can still fall out of step
// with one another: a write path that updates one map and not the next, an undo step that
// misses one, a caller that kept a reference to a stored object. The check re-derives every
// index from the records and compares, so doctor() reports such damage instead of "ok".

/** At most this many problems are listed; the rest are counted. */
const MAX_LISTED = 20;

/** What the in-memory store holds, as its check reads it. */
export interface InMemoryState {
  memories: ReadonlyMap<string, Memory>;
  embeddings: ReadonlyMap<string, Float32Array>;
  lexicalIndex: Bm25Index;
  identity: EmbedderIdentity | null;
  /** Each record collection by name, with the key each record is held under. */
  collections: Record<string, Iterable<[string, CollectionRecord]>>;
}

/** Check the in-memory store's invariants: records under their own ids, embeddings of stored memories with the store's dimensions, the lexical index equal to what the memories would build. */
export function checkInMemoryState(state: InMemoryState): StoreCheck {
  const problems: string[] = [];
  let hidden = 0;
  const note = (problem: string) => {
    if (problems.length < MAX_LISTED) problems.push(problem);
    else hidden++;
  };

  for (const [key, memory] of state.memories) {
    if (memory.id !== key) note(`memory "${memory.id}" is held under the id "${key}"`);
  }
  const dimensions = state.identity?.dimensions ?? state.embeddings.values().next().value?.length;
  for (const [id, vector] of state.embeddings) {
    if (!state.memories.has(id)) note(`an embedding is held for "${id}", which is not stored`);
    if (!(vector instanceof Float32Array)) {
      note(`the embedding of "${id}" is not a Float32Array`);
      continue;
    }
    if (vector.length !== dimensions) {
      note(`the embedding of "${id}" has ${vector.length} dimensions, the store's have ${dimensions}`);
    }
    if (!vector.every(Number.isFinite)) note(`the embedding of "${id}" holds a value that is not a finite number`);
  }
  const expected = new Map<string, string>();
  for (const [key, memory] of state.memories) expected.set(key, lexicalText(memory));
  for (const problem of state.lexicalIndex.problems(expected, MAX_LISTED)) note(problem);
  let records = 0;
  for (const [name, entries] of Object.entries(state.collections)) {
    for (const [key, record] of entries) {
      records++;
      if (record.id !== key) note(`${name} record "${record.id}" is held under the id "${key}"`);
    }
  }
  if (hidden > 0) problems.push(`and ${hidden} more problems`);

  return {
    ok: problems.length === 0,
    problems,
    ...(problems.length > 0
      ? { suggestion: 'The in-memory store cannot repair itself: export what reads, and import it into a new store.' }
      : {}),
    details: {
      memories: state.memories.size,
      embeddings: state.embeddings.size,
      records,
      checks: 'ids, embeddings (owner, dimensions, finite), lexical index, record ids',
    },
  };
}
