// A memoir store of your own, written only against the public port (`MemoryStore` and the
// types beside it, from `memoir`): everything lives in Maps, which is enough to show each
// duty of the port. It passes the contract memoir's own stores pass (map-store.test.ts runs
// `runMemoryStoreContract` from `memoir/testing/contracts`). A store for a real database
// keeps the same shape, with queries where this one walks its Maps.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type EmbedderIdentity,
  type Entity,
  type ListMemoriesQuery,
  type Memory,
  type MemoryFilter,
  type MemoryRecord,
  type MemoryStore,
  memoryMatches,
  type Opinion,
  type Procedure,
  type RecordCollection,
  type Scope,
  type SearchHit,
  type Session,
  type StoreCapabilities,
  type StoreCheck,
  StoreError,
  type StoreStats,
  type UnembeddedQuery,
  type VectorSearchQuery,
} from 'memoir';

/** Everything the store holds; a transaction keeps a copy of it to roll back to. */
interface State {
  identity: EmbedderIdentity | null;
  memories: Map<string, Memory>;
  embeddings: Map<string, Float32Array>;
  opinions: Map<string, Opinion>;
  procedures: Map<string, Procedure>;
  sessions: Map<string, Session>;
  entities: Map<string, Entity>;
}

type RecordKey = 'opinions' | 'procedures' | 'sessions' | 'entities';

const emptyState = (): State => ({
  identity: null,
  memories: new Map(),
  embeddings: new Map(),
  opinions: new Map(),
  procedures: new Map(),
  sessions: new Map(),
  entities: new Map(),
});

/** Ids compare by code unit, as every memoir store orders them. */
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** True when every scope field the filter names is equal (the port's scope rule). */
function scopeMatches(scope: Scope, filter: Scope | undefined): boolean {
  if (!filter) return true;
  return (['userId', 'agentId', 'namespace'] as const).every(
    (field) => filter[field] === undefined || scope[field] === filter[field],
  );
}

function page<T>(items: T[], offset = 0, limit = Number.POSITIVE_INFINITY): T[] {
  return items.slice(offset, offset + limit);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** The Map store: create one with {@link createMapStore}. */
class MapStore implements MemoryStore {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'map-store';
  // No lexical search (a store declares what it offers; memoir's recall then ranks by
  // vectors alone), and the data is gone with the process.
  readonly capabilities: StoreCapabilities = {
    vectorSearch: true,
    lexicalSearch: false,
    persistent: false,
    // A failed transaction is rolled back to its copy; one process only, nothing on disk.
    transactions: 'atomic',
    crossProcess: 'none',
  };
  readonly opinions = this.collection<Opinion>('opinions');
  readonly procedures = this.collection<Procedure>('procedures');
  readonly sessions = this.collection<Session>('sessions');
  readonly entities = this.collection<Entity>('entities');

  private state = emptyState();
  private closed = false;
  /** One operation or transaction at a time; each waits for the one before it. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Set while a transaction runs, for the calls made from inside it. */
  private readonly inTransaction = new AsyncLocalStorage<true>();

  /** Run `work` after everything queued before it, or at once from inside a transaction. */
  private run<T>(work: () => T | Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.inTransaction.getStore()) return Promise.resolve().then(work);
    const result = this.queue.then(() => {
      if (this.closed) throw this.closedError();
      return work();
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  private closedError(): StoreError {
    return new StoreError('the store is closed', { component: this.name, suggestion: 'Create a new store.' });
  }

  async open(embedder: EmbedderIdentity): Promise<void> {
    return this.run(() => {
      const recorded = this.state.identity;
      const sameVectors = recorded?.id === embedder.id && recorded.dimensions === embedder.dimensions;
      if (recorded && this.state.embeddings.size > 0 && !sameVectors) {
        throw new StoreError(
          `the store holds vectors of "${recorded.id}" (${recorded.dimensions} dimensions), not "${embedder.id}" (${embedder.dimensions})`,
          {
            component: this.name,
            suggestion: 'Run `memoir reindex`, or open the store with the embedder it was built with.',
          },
        );
      }
      this.state.identity = { id: embedder.id, dimensions: embedder.dimensions };
    });
  }

  async resetEmbeddings(embedder: EmbedderIdentity): Promise<void> {
    return this.run(() => {
      this.state.embeddings.clear();
      this.state.identity = { id: embedder.id, dimensions: embedder.dimensions };
    });
  }

  async getMemories(ids: readonly string[]): Promise<Memory[]> {
    return this.run(() => ids.flatMap((id) => this.copyOf(this.state.memories.get(id))));
  }

  async upsertMemories(records: readonly MemoryRecord[]): Promise<void> {
    return this.run(() => {
      // Check the whole batch before writing any of it: a bad record leaves nothing written.
      const dimensions = this.state.identity?.dimensions;
      for (const { memory, embedding } of records) {
        if (embedding && dimensions !== undefined && embedding.length !== dimensions) {
          throw new StoreError(`memory "${memory.id}": expected ${dimensions} dimensions, got ${embedding.length}`, {
            component: this.name,
          });
        }
      }
      for (const { memory, embedding } of records) {
        this.state.memories.set(memory.id, structuredClone(memory));
        if (embedding) this.state.embeddings.set(memory.id, new Float32Array(embedding));
        else this.state.embeddings.delete(memory.id);
      }
    });
  }

  async deleteMemories(ids: readonly string[]): Promise<number> {
    return this.run(() => {
      let deleted = 0;
      for (const id of new Set(ids)) {
        if (this.state.memories.delete(id)) deleted += 1;
        this.state.embeddings.delete(id);
      }
      return deleted;
    });
  }

  async listMemories(query: ListMemoriesQuery = {}): Promise<Memory[]> {
    return this.run(() => {
      const orderBy = query.orderBy ?? 'createdAt';
      const sign = query.direction === 'asc' ? 1 : -1;
      const found = this.matching(query.filter).sort((a, b) => {
        const [x, y] = [a[orderBy], b[orderBy]];
        // Ties are ordered by id, ascending, whatever the direction.
        return x === y ? byId(a.id, b.id) : (x < y ? -1 : 1) * sign;
      });
      return page(found, query.offset, query.limit).map((memory) => structuredClone(memory));
    });
  }

  async countMemories(filter?: MemoryFilter): Promise<number> {
    return this.run(() => this.matching(filter).length);
  }

  async getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.run(() => {
      const found = new Map<string, Float32Array>();
      for (const id of ids) {
        const embedding = this.state.embeddings.get(id);
        if (embedding) found.set(id, new Float32Array(embedding));
      }
      return found;
    });
  }

  async listUnembedded(query: UnembeddedQuery): Promise<Memory[]> {
    return this.run(() => {
      const after = query.after;
      const found = this.matching(query.filter)
        .filter((memory) => !this.state.embeddings.has(memory.id) && (after === undefined || memory.id > after))
        .sort((a, b) => byId(a.id, b.id));
      return page(found, 0, query.limit).map((memory) => structuredClone(memory));
    });
  }

  async recordAccess(ids: readonly string[], at: string): Promise<void> {
    return this.run(() => {
      for (const id of new Set(ids)) {
        const memory = this.state.memories.get(id);
        if (memory) this.state.memories.set(id, { ...memory, accessCount: memory.accessCount + 1, lastAccessedAt: at });
      }
    });
  }

  async searchVector(query: VectorSearchQuery): Promise<SearchHit[]> {
    return this.run(() => {
      const hits: SearchHit[] = [];
      for (const memory of this.matching(query.filter)) {
        const embedding = this.state.embeddings.get(memory.id);
        if (embedding) hits.push({ id: memory.id, score: cosine(query.vector, embedding) });
      }
      hits.sort((a, b) => b.score - a.score || byId(a.id, b.id));
      return hits.slice(0, query.limit);
    });
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction.getStore()) {
      throw new StoreError('transactions do not nest', { component: this.name });
    }
    return this.run(async () => {
      // All or nothing: keep a copy to go back to when `work` rejects.
      const before = structuredClone(this.state);
      try {
        return await this.inTransaction.run(true, work);
      } catch (error) {
        this.state = before;
        throw error;
      }
    });
  }

  async stats(): Promise<StoreStats> {
    return this.run(() => {
      let bytes = 0;
      for (const memory of this.state.memories.values()) bytes += JSON.stringify(memory).length;
      for (const embedding of this.state.embeddings.values()) bytes += embedding.byteLength;
      return {
        memories: this.state.memories.size,
        opinions: this.state.opinions.size,
        procedures: this.state.procedures.size,
        sessions: this.state.sessions.size,
        entities: this.state.entities.size,
        bytes,
      };
    });
  }

  /** An integrity check of what can go wrong here: vectors without a memory or of the wrong size. */
  async check(): Promise<StoreCheck> {
    return this.run(() => {
      const problems: string[] = [];
      const dimensions = this.state.identity?.dimensions;
      for (const [id, embedding] of this.state.embeddings) {
        if (!this.state.memories.has(id)) problems.push(`a vector for the missing memory "${id}"`);
        if (dimensions !== undefined && embedding.length !== dimensions) {
          problems.push(`memory "${id}" has ${embedding.length} dimensions, not ${dimensions}`);
        }
      }
      return { ok: problems.length === 0, problems };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Let what is queued finish, then refuse everything after.
    await this.queue;
    this.closed = true;
  }

  private matching(filter: MemoryFilter | undefined): Memory[] {
    return [...this.state.memories.values()].filter((memory) => memoryMatches(memory, filter));
  }

  private copyOf<T>(value: T | undefined): T[] {
    return value === undefined ? [] : [structuredClone(value)];
  }

  /** A record collection over one of the state's Maps. */
  private collection<T extends { id: string; scope: Scope }>(key: RecordKey): RecordCollection<T> {
    const records = () => this.state[key] as unknown as Map<string, T>;
    return {
      get: (ids) => this.run(() => ids.flatMap((id) => this.copyOf(records().get(id)))),
      upsert: (items) =>
        this.run(() => {
          for (const item of items) records().set(item.id, structuredClone(item));
        }),
      delete: (ids) => this.run(() => [...new Set(ids)].filter((id) => records().delete(id)).length),
      list: (options = {}) =>
        this.run(() => {
          const found = [...records().values()]
            .filter((record) => scopeMatches(record.scope, options.scope))
            .sort((a, b) => byId(a.id, b.id));
          return page(found, options.offset, options.limit).map((record) => structuredClone(record));
        }),
    };
  }
}

/**
 * A memoir store that keeps everything in Maps, in this process: an example of writing a
 * store against the public port. Pass it to `createMemory({ store: createMapStore() })`.
 */
export function createMapStore(): MemoryStore {
  return new MapStore();
}
