import { z } from 'zod';
import { compileFilter, scopeMatches } from '../../core/search/memory-filter.js';
import { isEmptyScope } from '../../core/search/scope-boundary.js';
import { cosineSimilarity } from '../../core/search/vector-math.js';
import { StoreError } from '../../core/spec/errors.js';
import type { Memory } from '../../core/spec/memory.js';
import type { Entity, Opinion, Procedure, Session } from '../../core/spec/records.js';
import type {
  EmbedderIdentity,
  LexicalSearchQuery,
  ListMemoriesQuery,
  ListQuery,
  MemoryFilter,
  MemoryRecord,
  MemoryStore,
  MemoryStoreWith,
  OptionalStoreMember,
  RecordKind,
  RecordListQuery,
  SearchHit,
  StoreCapabilities,
  StoreCheck,
  StoredRecord,
  StoreStats,
  UnembeddedQuery,
  VectorSearchQuery,
  WrittenRecord,
} from '../../core/spec/store.js';
import { listMemoriesIn } from '../../core/store-kit/memory-query.js';
import { createStoreGate, type StoreGate } from '../../core/store-kit/store-gate.js';
import { Bm25Index } from '../../core/text/bm25-index.js';
import { lexicalText } from '../../core/text/memory-text.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import { topHits } from '../../core/utils/top-hits.js';
import { checkInMemoryState } from './in-memory-check.js';
import { type CollectionHost, cloneForStorage, InMemoryCollection, type UndoLog } from './in-memory-collection.js';

const COMPONENT = 'in-memory-store';

/**
 * Options of {@link createInMemoryStore}.
 *
 * @group Adapters
 */
export interface InMemoryStoreOptions {
  /** The store's {@link MemoryStore.name}, used in messages. Default `in-memory`. */
  name?: string;
  /**
   * Where a scoped lexical search takes its BM25 statistics (document count, term
   * frequencies, average length): `store` — every memory, the usual choice and the better
   * ranking for small scopes; `scope` — only the scope's memories, so one tenant's scores
   * never move with what other tenants write. Default `store`.
   */
  lexicalStatistics?: 'store' | 'scope';
}

const optionsSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'expected a non-empty string')
      .max(128, 'expected at most 128 characters')
      .optional(),
    lexicalStatistics: z.enum(['store', 'scope']).optional(),
  })
  .strict();

// Transactions are atomic: undone step by step on a rejection, and a killed process takes the
// data with it. One process only: the data lives in it.
const CAPABILITIES: StoreCapabilities = Object.freeze({
  persistent: false,
  transactions: 'atomic',
  crossProcess: 'none',
});

const ignoreUndo: UndoLog = () => {};

/** The undo steps of the running transaction, in the order the changes were made. */
type UndoSteps = Array<() => void>;

/** The optional members the in-memory store has natively. */
type InMemoryNatives = Exclude<OptionalStoreMember, 'stageChange' | 'recordedEmbedder'>;

type OtherKind = Exclude<RecordKind, 'memory'>;

function storeError(message: string, suggestion?: string): StoreError {
  return new StoreError(message, { component: COMPONENT, suggestion });
}

function copyVector(vector: Float32Array): Float32Array {
  return new Float32Array(vector);
}

const textEncoder = new TextEncoder();

/** The in-memory {@link MemoryStore}. Construct it with {@link createInMemoryStore}. */
class InMemoryStore implements MemoryStoreWith<InMemoryNatives> {
  readonly specificationVersion = 'v2' as const;
  readonly capabilities = CAPABILITIES;
  private readonly records: { [K in OtherKind]: InMemoryCollection<StoredRecord<K>> };

  private readonly memories = new Map<string, Memory>();
  private readonly embeddings = new Map<string, Float32Array>();
  private readonly lexicalIndex = new Bm25Index();
  private identity: EmbedderIdentity | null = null;

  private readonly gate: StoreGate<UndoSteps>;

  constructor(
    readonly name: string,
    private readonly lexicalStatistics: 'store' | 'scope' = 'store',
  ) {
    this.gate = createStoreGate<UndoSteps>({
      name,
      closedSuggestion: 'Create a new store with createInMemoryStore().',
    });
    const host: CollectionHost = {
      read: (operation) => this.read(operation),
      write: (operation) => this.write(operation),
    };
    this.records = {
      opinion: new InMemoryCollection<Opinion>(host),
      procedure: new InMemoryCollection<Procedure>(host),
      session: new InMemoryCollection<Session>(host),
      entity: new InMemoryCollection<Entity>(host),
    };
  }

  async get<K extends RecordKind>(kind: K, ids: readonly string[]): Promise<StoredRecord<K>[]> {
    if (kind === 'memory') return this.getMemories(ids) as Promise<StoredRecord<K>[]>;
    return this.collection(kind).get(ids) as Promise<StoredRecord<K>[]>;
  }

  async put<K extends RecordKind>(kind: K, records: readonly WrittenRecord<K>[]): Promise<void> {
    if (kind === 'memory') return this.putMemories(records as readonly MemoryRecord[]);
    return this.collection(kind).upsert(records as never);
  }

  async delete(kind: RecordKind, ids: readonly string[]): Promise<number> {
    if (kind === 'memory') return this.deleteMemories(ids);
    return this.collection(kind).delete(ids);
  }

  async list<K extends RecordKind>(kind: K, query?: ListQuery<K>): Promise<StoredRecord<K>[]> {
    if (kind === 'memory') return this.listMemories(query as ListMemoriesQuery) as Promise<StoredRecord<K>[]>;
    return this.collection(kind).list(query as RecordListQuery) as Promise<StoredRecord<K>[]>;
  }

  private collection(kind: RecordKind): InMemoryCollection<{ id: string; scope: Memory['scope'] }> {
    const found = (this.records as Record<string, InMemoryCollection<{ id: string; scope: Memory['scope'] }>>)[kind];
    if (!found) throw storeError(`unknown record kind ${JSON.stringify(kind)}`);
    return found;
  }

  open(embedder: EmbedderIdentity): Promise<void> {
    return this.write((undo) => {
      if (
        typeof embedder?.id !== 'string' ||
        embedder.id.length === 0 ||
        !Number.isInteger(embedder.dimensions) ||
        embedder.dimensions <= 0
      ) {
        throw storeError('open() expects an embedder identity with a non-empty id and positive integer dimensions');
      }
      const held = this.heldDimensions();
      if (held !== null) {
        const recorded = this.identity;
        const builtWith = recorded
          ? `embedder "${recorded.id}" (${recorded.dimensions} dimensions)`
          : `an embedder with ${held} dimensions`;
        if ((recorded && recorded.id !== embedder.id) || held !== embedder.dimensions) {
          throw storeError(
            `the store holds vectors from ${builtWith}, but was opened with embedder "${embedder.id}" (${embedder.dimensions} dimensions); their vectors don't compare`,
            'Re-embed the stored memories with the new embedder (`memoir reindex`), or open the store with the embedder it was built with.',
          );
        }
      }
      const previous = this.identity;
      undo(() => {
        this.identity = previous;
      });
      this.identity = { id: embedder.id, dimensions: embedder.dimensions };
    });
  }

  resetEmbeddings(embedder: EmbedderIdentity): Promise<void> {
    return this.write((undo) => {
      const previousEmbeddings = new Map(this.embeddings);
      const previousIdentity = this.identity;
      undo(() => {
        for (const [id, embedding] of previousEmbeddings) this.embeddings.set(id, embedding);
        this.identity = previousIdentity;
      });
      this.embeddings.clear();
      this.identity = { id: embedder.id, dimensions: embedder.dimensions };
    });
  }

  private getMemories(ids: readonly string[]): Promise<Memory[]> {
    return this.read(() => {
      const found: Memory[] = [];
      for (const id of ids) {
        const memory = this.memories.get(id);
        if (memory) found.push(structuredClone(memory));
      }
      return found;
    });
  }

  private putMemories(records: readonly MemoryRecord[]): Promise<void> {
    return this.write((undo) => {
      // Validate and copy the whole batch first: nothing is written unless all of it can be.
      let dimensions = this.identity?.dimensions ?? this.heldDimensions();
      const prepared = records.map((record, index) => {
        const { memory, embedding } = record;
        if (typeof memory?.id !== 'string' || memory.id.length === 0) {
          throw storeError(`records[${index}].memory: expected a memory with a non-empty id`);
        }
        if (embedding !== null) {
          if (!(embedding instanceof Float32Array)) {
            throw storeError(`records[${index}].embedding: expected a Float32Array or null`);
          }
          dimensions ??= embedding.length;
          if (embedding.length !== dimensions) {
            throw storeError(
              `records[${index}].embedding: expected ${dimensions} dimensions, got ${embedding.length} (memory "${memory.id}")`,
              'Embed every memory with the embedder the store was opened with; after changing embedders run `memoir reindex`.',
            );
          }
        }
        const copy = cloneForStorage(memory, `records[${index}].memory`);
        return { memory: copy, embedding: embedding === null ? null : copyVector(embedding), text: lexicalText(copy) };
      });
      for (const { memory, embedding, text } of prepared) this.putMemory(memory, embedding, text, undo);
    });
  }

  private deleteMemories(ids: readonly string[]): Promise<number> {
    return this.write((undo) => {
      let deleted = 0;
      for (const id of ids) {
        const previous = this.memories.get(id);
        if (!previous) continue;
        const previousEmbedding = this.embeddings.get(id) ?? null;
        this.removeMemory(id);
        undo(() => this.setMemory(previous, previousEmbedding));
        deleted += 1;
      }
      return deleted;
    });
  }

  private listMemories(query: ListMemoriesQuery = {}): Promise<Memory[]> {
    return this.read(() =>
      listMemoriesIn(this.matching(query.filter), { ...query, filter: undefined }).map((memory) =>
        structuredClone(memory),
      ),
    );
  }

  count(filter?: MemoryFilter): Promise<number> {
    return this.read(() => this.matching(filter).length);
  }

  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.read(() => {
      const found = new Map<string, Float32Array>();
      for (const id of ids) {
        const embedding = this.embeddings.get(id);
        if (embedding) found.set(id, copyVector(embedding));
      }
      return found;
    });
  }

  listUnembedded(query: UnembeddedQuery): Promise<Memory[]> {
    return this.read(() => {
      const accept = compileFilter(query.filter);
      const limit = Math.max(0, Math.floor(query.limit));
      const found = [...this.memories.values()].filter(
        (memory) =>
          !this.embeddings.has(memory.id) && (query.after === undefined || memory.id > query.after) && accept(memory),
      );
      found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return found.slice(0, limit).map((memory) => structuredClone(memory));
    });
  }

  recordAccess(ids: readonly string[], at: string): Promise<void> {
    return this.write((undo) => {
      // Once per memory per call, as an SQL `UPDATE … WHERE id IN (…)` would.
      for (const id of new Set(ids)) {
        const previous = this.memories.get(id);
        if (!previous) continue;
        // The text is unchanged, so the lexical index needs no update.
        this.memories.set(id, { ...previous, accessCount: previous.accessCount + 1, lastAccessedAt: at });
        undo(() => this.memories.set(id, previous));
      }
    });
  }

  searchLexical(query: LexicalSearchQuery): Promise<SearchHit[]> {
    const accept = compileFilter(query.filter);
    const scope = query.filter?.scope;
    // With `lexicalStatistics: 'scope'` a scoped search takes its BM25 statistics from its
    // own scope: a tenant's scores never depend on what other tenants hold.
    const scoped = this.lexicalStatistics === 'scope' && scope !== undefined && !isEmptyScope(scope);
    return this.read(() =>
      this.lexicalIndex.search(query.text, {
        limit: query.limit,
        accept: (id) => {
          const memory = this.memories.get(id);
          return memory !== undefined && accept(memory);
        },
        ...(scoped
          ? {
              corpus: (id: string) => {
                const memory = this.memories.get(id);
                return memory !== undefined && scopeMatches(memory.scope, scope);
              },
            }
          : {}),
      }),
    );
  }

  searchVector(query: VectorSearchQuery): Promise<SearchHit[]> {
    return this.read(() => {
      const vector = query.vector;
      if (!(vector instanceof Float32Array))
        throw storeError('searchVector: expected the query vector as a Float32Array');
      const dimensions = this.identity?.dimensions ?? this.heldDimensions();
      if (dimensions !== null && vector.length !== dimensions) {
        throw storeError(
          `searchVector: expected a query vector of ${dimensions} dimensions, got ${vector.length}`,
          'Embed the query with the embedder the store was opened with.',
        );
      }
      const limit = Math.max(0, Math.floor(query.limit));
      if (limit === 0) return [];
      const accept = compileFilter(query.filter);
      const hits: SearchHit[] = [];
      for (const [id, embedding] of this.embeddings) {
        const memory = this.memories.get(id);
        if (!memory || !accept(memory)) continue;
        hits.push({ id, score: cosineSimilarity(vector, embedding) });
      }
      return topHits(hits, limit);
    });
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.gate.transaction(work, {
      begin: (): UndoSteps => [],
      rollback: (undo) => {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
      },
    });
  }

  stats(): Promise<StoreStats> {
    return this.read(() => {
      let bytes = 0;
      for (const memory of this.memories.values()) bytes += textEncoder.encode(JSON.stringify(memory)).byteLength;
      for (const embedding of this.embeddings.values()) bytes += 4 * embedding.length;
      return {
        memories: this.memories.size,
        opinions: this.records.opinion.size,
        procedures: this.records.procedure.size,
        sessions: this.records.session.size,
        entities: this.records.entity.size,
        bytes,
      };
    });
  }

  /**
   * Verify the store's own invariants (see {@link checkInMemoryState}): records under their
   * ids, embeddings only for stored memories and all of one dimension, the lexical index
   * exactly what the memories would build.
   */
  async check(): Promise<StoreCheck> {
    return checkInMemoryState({
      memories: this.memories,
      embeddings: this.embeddings,
      lexicalIndex: this.lexicalIndex,
      identity: this.identity,
      collections: {
        opinions: this.records.opinion.entries(),
        procedures: this.records.procedure.entries(),
        sessions: this.records.session.entries(),
        entities: this.records.entity.entries(),
      },
    });
  }

  close(): Promise<void> {
    // Queued writes and a running transaction finish first; then everything is dropped.
    return this.gate.close(() => {
      this.memories.clear();
      this.embeddings.clear();
      this.lexicalIndex.clear();
      for (const collection of Object.values(this.records)) collection.clear();
    });
  }

  private async read<R>(operation: () => R): Promise<R> {
    return this.gate.read(operation);
  }

  private write<R>(operation: (undo: UndoLog) => R): Promise<R> {
    return this.gate.write((undo) => operation(undo ? (step) => undo.push(step) : ignoreUndo));
  }

  /** Length of the stored vectors, or null when none are stored. */
  private heldDimensions(): number | null {
    for (const embedding of this.embeddings.values()) return embedding.length;
    return null;
  }

  private matching(filter: MemoryFilter | undefined): Memory[] {
    const accept = compileFilter(filter);
    // An id filter names its few candidates; everything else scans.
    const candidates = filter?.ids ? filter.ids.flatMap((id) => this.memories.get(id) ?? []) : this.memories.values();
    const found: Memory[] = [];
    const seen = new Set<string>();
    for (const memory of candidates) {
      if (seen.has(memory.id) || !accept(memory)) continue;
      seen.add(memory.id);
      found.push(memory);
    }
    return found;
  }

  private putMemory(memory: Memory, embedding: Float32Array | null, text: string, undo: UndoLog): void {
    const previous = this.memories.get(memory.id);
    const previousEmbedding = this.embeddings.get(memory.id) ?? null;
    undo(() => {
      if (previous) this.setMemory(previous, previousEmbedding);
      else this.removeMemory(memory.id);
    });
    this.setMemory(memory, embedding, text);
  }

  private setMemory(memory: Memory, embedding: Float32Array | null, text = lexicalText(memory)): void {
    this.memories.set(memory.id, memory);
    if (embedding) this.embeddings.set(memory.id, embedding);
    else this.embeddings.delete(memory.id);
    this.lexicalIndex.add(memory.id, text);
  }

  private removeMemory(id: string): void {
    this.memories.delete(id);
    this.embeddings.delete(id);
    this.lexicalIndex.remove(id);
  }
}

/**
 * A {@link MemoryStore} that keeps everything in process memory: BM25 lexical search,
 * brute-force cosine vector search, transactions with rollback. Nothing survives
 * `close()`. Meant for tests, examples and short-lived agents.
 *
 * @example
 * ```ts
 * import { createInMemoryStore, createMemory } from 'memoir';
 *
 * const memory = createMemory({ store: createInMemoryStore() }); // nothing touches the disk
 * ```
 *
 * @throws ConfigError when `options` is invalid.
 * @group Adapters
 */
export function createInMemoryStore(
  options?: InMemoryStoreOptions,
): MemoryStoreWith<Exclude<OptionalStoreMember, 'stageChange' | 'recordedEmbedder'>> {
  const parsed = parseOptions(optionsSchema, options, COMPONENT, 'createInMemoryStore accepts { name?: string }.');
  return new InMemoryStore(parsed.name ?? 'in-memory', parsed.lexicalStatistics ?? 'store');
}
