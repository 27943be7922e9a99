import type { Memory, MemoryKind, Scope } from './memory.js';
import type { Entity, Opinion, Procedure, Session } from './records.js';

/**
 * Which memories an operation applies to. Every field is optional and the fields
 * combine with AND. Array fields match when the memory has any of the listed values.
 *
 * @group Ports
 */
export interface MemoryFilter {
  /**
   * Ownership. A memory matches when each field given here is equal on the memory;
   * a memory without that field does not match. `{}` or undefined matches every scope.
   */
  scope?: Scope;
  /** Restrict to these ids. */
  ids?: readonly string[];
  /** Restrict to these kinds. */
  kinds?: readonly MemoryKind[];
  /** Restrict to these categories (exact match). */
  categories?: readonly string[];
  /** Memories mentioning any of these entities (case-insensitive). */
  entities?: readonly string[];
  /** Restrict to one session. */
  sessionId?: string;
  /** `occurredAt >= since` (ISO 8601). */
  since?: string;
  /** `occurredAt <= until` (ISO 8601). */
  until?: string;
  /**
   * Only memories valid at this instant (ISO 8601): `validFrom <= validAt` and
   * `validTo` null or later than it. Omit to include invalidated memories.
   */
  validAt?: string;
  /** Restrict to memories with these fingerprints. */
  fingerprints?: readonly string[];
  /** Only bookmarked (true) or only not bookmarked (false) memories. */
  bookmarked?: boolean;
}

/**
 * Arguments of {@link MemoryStore.listUnembedded}.
 *
 * @group Ports
 */
export interface UnembeddedQuery {
  /** Which memories. */
  filter?: MemoryFilter;
  /** Maximum memories. */
  limit: number;
  /** Only ids after this one (the last id of the previous page). */
  after?: string;
}

/**
 * Sort keys of {@link ListMemoriesQuery}.
 *
 * @group Ports
 */
export type MemoryOrder = 'occurredAt' | 'createdAt' | 'updatedAt' | 'importance';

/**
 * Arguments of {@link MemoryStore.list} for memories.
 *
 * @group Ports
 */
export interface ListMemoriesQuery {
  /** Which memories. */
  filter?: MemoryFilter;
  /** Sort key. Default `createdAt`. Ties break on `id` ascending, so pages are stable. */
  orderBy?: MemoryOrder;
  /** Sort direction. Default `desc`. */
  direction?: 'asc' | 'desc';
  /** Maximum rows. Default: all. */
  limit?: number;
  /** Rows to skip. Default 0. */
  offset?: number;
}

/**
 * One candidate from a search, best first.
 *
 * @group Ports
 */
export interface SearchHit {
  /** Memory id. */
  id: string;
  /**
   * The list's own score; higher is better. For lexical search a BM25 score (positive),
   * for vector search the cosine similarity in -1..1.
   */
  score: number;
}

/**
 * Arguments of {@link MemoryStore.searchLexical}.
 *
 * @group Ports
 */
export interface LexicalSearchQuery {
  /** Free text. Stores tokenise it the way they tokenise memory text. */
  text: string;
  /** Which memories may be returned. */
  filter?: MemoryFilter;
  /** Maximum hits. */
  limit: number;
}

/**
 * Arguments of {@link MemoryStore.searchVector}.
 *
 * @group Ports
 */
export interface VectorSearchQuery {
  /** Query embedding; same dimensions as the stored embeddings, L2-normalised. */
  vector: Float32Array;
  /** Which memories may be returned. */
  filter?: MemoryFilter;
  /** Maximum hits. */
  limit: number;
}

/**
 * A memory with the embedding to store beside it.
 *
 * @group Ports
 */
export interface MemoryRecord {
  /** The memory. */
  memory: Memory;
  /** Its embedding, or null when the memory is not embedded. */
  embedding: Float32Array | null;
}

/**
 * How far the writes made inside one {@link MemoryStore.transaction} hang together.
 *
 * - `atomic`: every write of the transaction is applied, or none is — when `work` rejects and,
 *   for a persistent store, when the process is killed part-way (the store's own journal undoes
 *   a transaction that never committed the next time the data is opened).
 * - `per-table`: each write call (one batch of one kind) is applied whole, and a transaction
 *   whose `work` rejects is undone while the process lives; a process killed part-way (or an undo
 *   that fails) can leave the writes on some kinds and not on others.
 * - `none`: each write call is applied whole, but a transaction whose `work` rejects keeps the
 *   writes made before the rejection; transactions only serialise. This is what memoir assumes of
 *   a store without `transaction()`: it then serialises the store's writes itself.
 *
 * @group Ports
 */
export type TransactionGuarantee = 'atomic' | 'per-table' | 'none';

/**
 * What a store guarantees when several processes open the same data.
 *
 * - `serialised`: several processes may read and write at once; their transactions and writes
 *   are serialised and isolated (another process sees a transaction whole or not at all).
 * - `per-write`: several processes may read and write at once and no acknowledged write is lost,
 *   but transactions of different processes interleave, and another process can read a
 *   transaction's writes before it ends (or the part of it a killed process left).
 * - `none`: one process at a time (the data lives in the process, or two writers would damage it).
 *
 * @group Ports
 */
export type CrossProcessGuarantee = 'serialised' | 'per-write' | 'none';

/**
 * What a store guarantees — only the promises that change what memoir does. What a store can
 * do (search natively, stage changes, count…) is never declared here: memoir detects it by the
 * presence of the optional member. Absent fields read as the weakest value.
 *
 * @group Ports
 */
export interface StoreCapabilities {
  /** Data survives `close()` and a new process. Default `false`. */
  readonly persistent?: boolean;
  /**
   * How far one `transaction()` hangs together (see {@link TransactionGuarantee}). Read only when
   * the store has `transaction()`; without it the guarantee is `none`. Bulk changes (restore,
   * import, clear) need `atomic` or `per-table` (or `stageChange`) and are refused on `none`;
   * every other operation that writes more than once (retain, forget, consolidate…) is as
   * all-or-nothing as this says. Default `none`.
   */
  readonly transactions?: TransactionGuarantee;
  /** What holds when several processes open the same data (see {@link CrossProcessGuarantee}). Default `none`. */
  readonly crossProcess?: CrossProcessGuarantee;
}

/**
 * Which records of a kind other than `memory` to list: those of a scope (same matching as
 * {@link MemoryFilter.scope}), ordered by id ascending, paged.
 *
 * @group Ports
 */
export interface RecordListQuery {
  /** Only records of this scope; absent or `{}`: every scope. */
  scope?: Scope;
  /** Maximum records. Default: all. */
  limit?: number;
  /** Records to skip. Default 0. */
  offset?: number;
}

/**
 * The kinds of record a store holds, each with what `get` and `list` return, what `put`
 * takes and what `list` is asked. Memories are the main kind; the others are records keyed by
 * their `id` that memoir keeps beside them.
 *
 * @group Ports
 */
export interface StoreRecordKinds {
  /** Memories: `put` takes each with its embedding; `list` filters, orders and pages. */
  memory: {
    /** What `get` and `list` return. */
    record: Memory;
    /** What `put` takes. */
    write: MemoryRecord;
    /** What `list` is asked. */
    query: ListMemoriesQuery;
  };
  /** Opinions. */
  opinion: {
    /** What `get` and `list` return. */
    record: Opinion;
    /** What `put` takes. */
    write: Opinion;
    /** What `list` is asked. */
    query: RecordListQuery;
  };
  /** Procedures. */
  procedure: {
    /** What `get` and `list` return. */
    record: Procedure;
    /** What `put` takes. */
    write: Procedure;
    /** What `list` is asked. */
    query: RecordListQuery;
  };
  /** Sessions. */
  session: {
    /** What `get` and `list` return. */
    record: Session;
    /** What `put` takes. */
    write: Session;
    /** What `list` is asked. */
    query: RecordListQuery;
  };
  /** Entities. */
  entity: {
    /** What `get` and `list` return. */
    record: Entity;
    /** What `put` takes. */
    write: Entity;
    /** What `list` is asked. */
    query: RecordListQuery;
  };
}

/**
 * A kind of record: `memory`, `opinion`, `procedure`, `session` or `entity`.
 *
 * @group Ports
 */
export type RecordKind = keyof StoreRecordKinds;

/**
 * Every kind of record, memories first.
 *
 * @group Ports
 */
export const RECORD_KINDS: readonly RecordKind[] = Object.freeze([
  'memory',
  'opinion',
  'procedure',
  'session',
  'entity',
]);

/**
 * What `get` and `list` return for a kind: `StoredRecord<'opinion'>` is {@link Opinion}.
 *
 * @group Ports
 */
export type StoredRecord<K extends RecordKind> = StoreRecordKinds[K]['record'];

/**
 * What `put` takes for a kind: a {@link MemoryRecord} for `memory`, the record itself otherwise.
 *
 * @group Ports
 */
export type WrittenRecord<K extends RecordKind> = StoreRecordKinds[K]['write'];

/**
 * What `list` is asked for a kind: a {@link ListMemoriesQuery} for `memory`, a
 * {@link RecordListQuery} otherwise.
 *
 * @group Ports
 */
export type ListQuery<K extends RecordKind> = StoreRecordKinds[K]['query'];

/**
 * The record kinds other than memory by their plural names, as a {@link StagedChange} and
 * {@link StagedRemovals} name them (`opinions` holds records of kind `opinion`).
 *
 * @group Ports
 */
export type RecordCollectionKey = 'opinions' | 'procedures' | 'sessions' | 'entities';

/**
 * Options of {@link MemoryStore.stageChange}.
 *
 * @group Ports
 */
export interface StageChangeOptions {
  /**
   * Remove every memory and record of this scope when the change is committed, before the
   * staged ones are written: `{ scope: undefined }` or `{}` removes everything (restore and
   * clear of a whole store). Absent: nothing is removed (import).
   */
  replace?: {
    /** The scope whose memories and records go; absent: every scope. */
    scope?: Scope;
  };
}

/**
 * How many memories and records a committed {@link StagedChange} removed (the replaced scope's,
 * before the staged ones were written).
 *
 * @group Ports
 */
export type StagedRemovals = Record<'memories' | RecordCollectionKey, number>;

/**
 * A bulk change being written apart from the live data. Nothing staged is visible to reads
 * until `commit()`; a process killed before `commit()` began leaves the live data as it was.
 *
 * @group Ports
 */
export interface StagedChange {
  /** Stage memories to insert or replace by id; a later one with the same id wins. */
  upsertMemories(records: readonly MemoryRecord[]): Promise<void>;
  /** Stage records of one collection to insert or replace by id; a later one with the same id wins. */
  upsertRecords(key: RecordCollectionKey, records: readonly { id: string; scope: Scope }[]): Promise<void>;
  /**
   * Apply the change: the removal `replace` asked for, then every staged memory and record. Its
   * first step is one atomic write that decides the outcome; killed after it, the change is
   * finished by the next open, killed before it, the change is dropped. Resolves once applied.
   */
  commit(): Promise<StagedRemovals>;
  /** Drop what was staged; the live data was never touched. Harmless after `commit()`. */
  abort(): Promise<void>;
}

/**
 * Counts and approximate sizes, for `stats()` and cleanup reports.
 *
 * @group Ports
 */
export interface StoreStats {
  /** Number of memories. */
  memories: number;
  /** Number of opinions. */
  opinions: number;
  /** Number of procedures. */
  procedures: number;
  /** Number of sessions. */
  sessions: number;
  /** Number of entities. */
  entities: number;
  /** Bytes used by memory text, metadata and embeddings (approximate for in-memory stores). */
  bytes: number;
}

/**
 * What {@link MemoryStore.check} found.
 *
 * @group Ports
 */
export interface StoreCheck {
  /** True when nothing is wrong with the stored data. */
  ok: boolean;
  /** What is wrong, one plain sentence each; empty when `ok`. */
  problems: string[];
  /** What to do about the problems, when the store knows (e.g. run `memoir doctor --repair`). */
  suggestion?: string;
  /** Facts worth showing beside the verdict, e.g. the file checked, its size, which checks ran. */
  details?: Record<string, string | number | boolean | null>;
}

/**
 * The embedder a store's vectors were built with.
 *
 * @group Ports
 */
export interface EmbedderIdentity {
  /** The embedder's {@link Embedder.id}. */
  id: string;
  /** Vector length. */
  dimensions: number;
}

/**
 * The embedder a store records, as {@link MemoryStore.recordedEmbedder} reads it.
 *
 * @group Ports
 */
export interface RecordedEmbedder extends EmbedderIdentity {
  /**
   * Whether the store holds any embedding. Only then does `open()` refuse another embedder;
   * a store without embeddings records whichever embedder opens it.
   */
  hasEmbeddings: boolean;
}

/**
 * Persistence for memories and the records around them: one record space keyed by kind and
 * id. memoir's engine talks to storage only through this interface, and derives everything
 * else (counts, stats, access counts, search without a native index, bulk changes) from it.
 * The contracts on `memoir/testing/contracts` are what an implementation must pass, and
 * `memoir/store-kit` holds the machinery most stores need (write queue, nesting guard, closed
 * state, filter/order/page helpers).
 *
 * Required are `open`, `close`, `get`, `put`, `delete`, `list` and `getEmbeddings`. Every other
 * member is an optional native that memoir uses when it is PRESENT (nothing is declared for it),
 * with a derived fallback — or, for `resetEmbeddings`, a StoreError naming the member — when it
 * is not. A wrapper store defines an optional member only when the store it wraps has it.
 *
 * Stores never validate domain rules (the engine does); they store what they are given and
 * answer queries exactly. Every call on a closed store rejects with a StoreError.
 *
 * @group Ports
 */
export interface MemoryStore {
  /** Version of this interface the store implements. */
  readonly specificationVersion: 'v2';
  /** Short name used in error messages, e.g. `in-memory` or `sqlite`. */
  readonly name: string;
  /** What the store guarantees (see {@link StoreCapabilities}); `{}` is the weakest. */
  readonly capabilities: StoreCapabilities;

  /**
   * Called once by the engine before first use with the embedder in use. A store that
   * already holds vectors from a different embedder (another id or dimensions) must reject
   * with a StoreError whose suggestion says how to reindex; otherwise it records the identity.
   */
  open(embedder: EmbedderIdentity): Promise<void>;
  /**
   * Release resources once the writes already started have finished. Every later call rejects
   * with a StoreError; calling `close()` twice is harmless.
   */
  close(): Promise<void>;

  /**
   * The records of `kind` with these ids, in the order asked; missing ids are left out and an id
   * asked twice is returned twice. Memories come without their embedding (see `getEmbeddings`).
   * Returned records are copies: changing one changes nothing stored.
   */
  get<K extends RecordKind>(kind: K, ids: readonly string[]): Promise<StoredRecord<K>[]>;
  /**
   * Insert or replace records of `kind` by id (an upsert); a later record with the same id in
   * the batch wins. Atomic: on failure none of the batch is visible. A memory record carries its
   * embedding (or null, which removes a stored one); an embedding whose length differs from the
   * store's recorded dimensions is refused with a StoreError.
   */
  put<K extends RecordKind>(kind: K, records: readonly WrittenRecord<K>[]): Promise<void>;
  /** Hard-delete records of `kind` by id (a memory with its embedding); resolves to the number deleted. Unknown ids are ignored. */
  delete(kind: RecordKind, ids: readonly string[]): Promise<number>;
  /**
   * Records of `kind`, paged. Memories: those matching `query.filter` (see {@link MemoryFilter};
   * `memoryMatches` from `memoir/store-kit` is the reference), ordered by `query.orderBy` (default
   * `createdAt`, timestamps compared as instants) in `query.direction` (default `desc`), ties by id
   * ascending. Other kinds: those of `query.scope`, ordered by id ascending. Then `offset`, then `limit`.
   */
  list<K extends RecordKind>(kind: K, query?: ListQuery<K>): Promise<StoredRecord<K>[]>;
  /** Stored embeddings by memory id; memories without one, and unknown ids, are left out. */
  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>>;

  /**
   * Lexical (keyword) search, best first. Must return only memories matching `filter`, and only
   * ones sharing at least one term with the text. Optional: without it memoir ranks with BM25
   * over the matching memories, read on every recall.
   */
  searchLexical?(query: LexicalSearchQuery): Promise<SearchHit[]>;
  /**
   * Nearest neighbours by cosine similarity, best first. Must return only embedded memories
   * matching `filter`. Optional: without it memoir scans the matching memories' embeddings.
   */
  searchVector?(query: VectorSearchQuery): Promise<SearchHit[]>;
  /**
   * Run `work` as one transaction: its writes are applied together as far as
   * `capabilities.transactions` says, and the rejection of `work` is passed on. Transactions do
   * not nest (a nested call rejects with a StoreError) and are serialised with the other writes of
   * this process; calls made inside `work` are not queued behind it. Optional: without it memoir
   * serialises the store's writes in a queue of its own and assumes the guarantee `none`.
   */
  transaction?<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Start a bulk change staged apart from the live data (see {@link StagedChange}). Optional:
   * memoir then runs bulk changes (restore, import, clear) in one `transaction()`, and refuses
   * them when the store's transactions are `none`.
   */
  stageChange?(options?: StageChangeOptions): Promise<StagedChange>;
  /** Number of memories matching a filter. Optional: without it memoir counts by paging through `list('memory')`. */
  count?(filter?: MemoryFilter): Promise<number>;
  /**
   * Memories matching `filter` with no stored embedding, in id order, starting after `after`.
   * Optional: without it memoir pages through the matching memories and their embeddings.
   */
  listUnembedded?(query: UnembeddedQuery): Promise<Memory[]>;
  /**
   * Record that recall returned these memories: add 1 to `accessCount` (once per id per call) and
   * set `lastAccessedAt` to `at`, without changing `updatedAt`. Optional: without it memoir reads
   * the memories and their embeddings and puts them back in one transaction — correct in one
   * process, but an increment can be lost to another process writing the same memory.
   */
  recordAccess?(ids: readonly string[], at: string): Promise<void>;
  /**
   * Counts and sizes. Optional: without it memoir counts by paging through every kind and
   * estimates `bytes` from their JSON and embeddings.
   */
  stats?(): Promise<StoreStats>;
  /**
   * Drop every stored embedding and record `embedder` as the store's embedder, so that `reindex`
   * can re-embed with a different model. Memories themselves are kept. Optional: without it
   * `reindex()` re-embeds only the memories missing an embedding, and a full reindex is refused
   * with a StoreError naming this member.
   */
  resetEmbeddings?(embedder: EmbedderIdentity): Promise<void>;
  /**
   * The embedder recorded by the last `open()` or `resetEmbeddings()`, and whether the store
   * holds embeddings; null when none was recorded yet. Reads without checking or recording
   * anything, and may be called before `open()`, so a caller can choose the embedder to open
   * with. Optional: without it such a store can only be opened with its own embedder.
   */
  recordedEmbedder?(): Promise<RecordedEmbedder | null>;
  /**
   * Check the stored data for damage without changing anything. Resolves with what was found
   * rather than rejecting for damage, and works even when the store cannot open because of it.
   * Optional: a store without it is checked by opening it and reading its counts.
   */
  check?(): Promise<StoreCheck>;
}

/**
 * The optional members of {@link MemoryStore}, by name.
 *
 * @group Ports
 */
export type OptionalStoreMember =
  | 'searchLexical'
  | 'searchVector'
  | 'transaction'
  | 'stageChange'
  | 'count'
  | 'listUnembedded'
  | 'recordAccess'
  | 'stats'
  | 'resetEmbeddings'
  | 'recordedEmbedder'
  | 'check';

/**
 * A {@link MemoryStore} known to have the optional members `M`: what a store's factory returns,
 * so code holding it calls those members without checking for them.
 *
 * @group Ports
 */
export type MemoryStoreWith<M extends OptionalStoreMember> = MemoryStore & Required<Pick<MemoryStore, M>>;
