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
 * Sort keys for {@link MemoryStore.listMemories}.
 *
 * @group Ports
 */
export type MemoryOrder = 'occurredAt' | 'createdAt' | 'updatedAt' | 'importance';

/**
 * Arguments of {@link MemoryStore.listMemories}.
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
 * - `per-table`: each write call (one batch on one table) is applied whole, and a transaction
 *   whose `work` rejects is undone while the process lives; a process killed part-way (or an undo
 *   that fails) can leave the writes on some tables and not on others.
 * - `none`: each write call is applied whole, but a transaction whose `work` rejects keeps the
 *   writes made before the rejection; `transaction()` only serialises.
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
 * What a store can do natively and what it guarantees. Absent flags mean `false`, and absent
 * guarantees the weakest value (`none`), except where a deprecated flag says more (see each).
 * The core relies only on what is declared here: it falls back where a member is missing and
 * refuses, with a StoreError naming the capability, what it cannot do safely without it.
 *
 * @group Ports
 */
export interface StoreCapabilities {
  /** `searchLexical` is implemented (BM25 or equivalent). Default is `false`. */
  readonly lexicalSearch?: boolean;
  /** `searchVector` is implemented. Default is `false`. */
  readonly vectorSearch?: boolean;
  /** Data survives `close()` and a new process. Default is `false`. */
  readonly persistent?: boolean;
  /**
   * How far one `transaction()` hangs together (see {@link TransactionGuarantee}). Bulk changes
   * (restore, import, clear) need `atomic` or `per-table` (or `stagedChanges`) and are refused
   * on `none`; every other operation that writes more than once (retain, forget, deleteSession,
   * consolidate…) is as all-or-nothing as this says. Absent: `atomic` when the deprecated
   * `durableTransactions` is true, else `none`.
   */
  readonly transactions?: TransactionGuarantee;
  /**
   * What holds when several processes open the same data (see {@link CrossProcessGuarantee}).
   * Absent: `per-write` when the deprecated `multiProcess` is true, else `none`.
   */
  readonly crossProcess?: CrossProcessGuarantee;
  /**
   * Several processes may open the same data at once. Default is `false`.
   *
   * @deprecated Declare `crossProcess`, which also says whether their transactions are isolated.
   * Read as `crossProcess !== 'none'`.
   */
  readonly multiProcess?: boolean;
  /**
   * `transaction()` stays all-or-nothing when the process is killed part-way. Default is `false`.
   *
   * @deprecated Declare `transactions: 'atomic'` (on a persistent store that means it survives a
   * kill). Read only when `transactions` is absent.
   */
  readonly durableTransactions?: boolean;
  /**
   * `stageChange` is implemented: a bulk change (restore, import, clear) is written apart from
   * the live data and switched in by one commit whose outcome survives a crash (rolled forward
   * on the next open). The core uses it instead of `transaction()` for bulk changes, so they are
   * all-or-nothing on a store whose transactions are not. Default is `false`.
   */
  readonly stagedChanges?: boolean;
}

/** The record collections of a store, by their property name on {@link MemoryStore}. */
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

/** The embedder a store records, as {@link MemoryStore.recordedEmbedder} reads it. */
export interface RecordedEmbedder extends EmbedderIdentity {
  /**
   * Whether the store holds any embedding. Only then does `open()` refuse another embedder;
   * a store without embeddings records whichever embedder opens it.
   */
  hasEmbeddings: boolean;
}

/**
 * Key-value access to one kind of record (opinions, procedures, sessions, entities).
 * Records are keyed by their `id`.
 *
 * @group Ports
 */
export interface RecordCollection<
  T extends {
    /** The record's key. */
    id: string;
  },
> {
  /** The records with these ids, in the given order; missing ids are left out. */
  get(ids: readonly string[]): Promise<T[]>;
  /** Insert or replace each record by id. All or nothing. */
  upsert(records: readonly T[]): Promise<void>;
  /** Delete by id; resolves to the number deleted. Unknown ids are ignored. */
  delete(ids: readonly string[]): Promise<number>;
  /** Records of a scope (same matching as {@link MemoryFilter.scope}), ordered by id. */
  list(options?: { scope?: Scope; limit?: number; offset?: number }): Promise<T[]>;
}

/**
 * Persistence for memories and the records around them. memoir's engine talks to
 * storage only through this interface; the contract suite in `tests/contracts/`
 * is what an implementation must pass.
 *
 * Required are the members basic retain, recall and forget need (`open`, get / upsert /
 * delete / list memories, `getEmbeddings`, the four record collections, `transaction`,
 * `close`); the optional ones are used when present (and, for search and staged changes,
 * declared in {@link StoreCapabilities}), with a slower fallback or a StoreError naming the
 * missing member when they are not. A wrapper store defines an optional member only when the
 * store it wraps has it.
 *
 * Stores never validate domain rules (the engine does); they store what they are given
 * and answer queries exactly.
 *
 * @group Ports
 */
export interface MemoryStore {
  /** Version of this interface the store implements. */
  readonly specificationVersion: 'v1';
  /** Short name used in error messages, e.g. `in-memory` or `sqlite`. */
  readonly name: string;
  /** What the store does natively; the engine falls back for the rest. */
  readonly capabilities: StoreCapabilities;

  /**
   * Called once by the engine before first use with the embedder in use. A store that
   * already holds vectors from a different embedder must reject with a StoreError
   * whose suggestion says how to reindex; otherwise it records the identity.
   */
  open(embedder: EmbedderIdentity): Promise<void>;

  /**
   * The embedder recorded by the last `open()` or `resetEmbeddings()`, and whether the store
   * holds embeddings; null when none was recorded yet. Reads without checking or recording
   * anything, and may be called before `open()`, so a caller can choose the embedder to open
   * with: the `memoir` command opens a store built with another embedder under that
   * embedder's identity for the commands that need no vectors (stats, list, export…).
   * Optional: without it such a store can only be opened with its own embedder.
   */
  recordedEmbedder?(): Promise<RecordedEmbedder | null>;

  /**
   * Drop every stored embedding and record `embedder` as the store's embedder, so that
   * `reindex` can re-embed with a different model. Memories themselves are kept.
   * Optional: without it `reindex()` re-embeds only the memories missing an embedding
   * (`onlyMissing`), and a full reindex is refused with a StoreError naming this member.
   */
  resetEmbeddings?(embedder: EmbedderIdentity): Promise<void>;

  /** The memories with these ids, in the given order; missing ids are left out. */
  getMemories(ids: readonly string[]): Promise<Memory[]>;
  /**
   * Insert or replace memories by id, with their embeddings. Atomic: on failure none
   * of the batch is visible.
   */
  upsertMemories(records: readonly MemoryRecord[]): Promise<void>;
  /** Hard-delete by id; resolves to the number deleted. Unknown ids are ignored. */
  deleteMemories(ids: readonly string[]): Promise<number>;
  /** Memories matching a filter, sorted and paged. */
  listMemories(query?: ListMemoriesQuery): Promise<Memory[]>;
  /**
   * Number of memories matching a filter. Optional: without it memoir counts by paging through
   * `listMemories`, a pass over the matching memories each time.
   */
  countMemories?(filter?: MemoryFilter): Promise<number>;
  /** Stored embeddings by memory id; memories without one are left out. */
  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /**
   * Memories matching `filter` with no stored embedding, in id order, starting after
   * `after`. Optional: without it, memoir finds them by paging through every memory, which
   * costs a pass over the whole store each time a client opens.
   */
  listUnembedded?(query: UnembeddedQuery): Promise<Memory[]>;
  /**
   * Record that recall returned these memories: add 1 to `accessCount` and set
   * `lastAccessedAt` to `at`. Does not change `updatedAt`. Optional: without it memoir reads
   * the memories and their embeddings and writes them back in one `transaction()` — correct in
   * one process, but an increment can be lost to another process writing the same memory.
   */
  recordAccess?(ids: readonly string[], at: string): Promise<void>;

  /**
   * Lexical (keyword) search, best first. Present when `capabilities.lexicalSearch`.
   * Must return only memories matching `filter`, and only ones sharing at least one term.
   */
  searchLexical?(query: LexicalSearchQuery): Promise<SearchHit[]>;
  /**
   * Nearest neighbours by cosine similarity, best first. Present when
   * `capabilities.vectorSearch`. Must return only embedded memories matching `filter`.
   */
  searchVector?(query: VectorSearchQuery): Promise<SearchHit[]>;

  /** Opinions. */
  readonly opinions: RecordCollection<Opinion>;
  /** Procedures. */
  readonly procedures: RecordCollection<Procedure>;
  /** Sessions. */
  readonly sessions: RecordCollection<Session>;
  /** Entities. */
  readonly entities: RecordCollection<Entity>;

  /**
   * Run `work` as one transaction: its writes are applied together as far as
   * `capabilities.transactions` says — all or nothing (`atomic`), undone on a rejection while the
   * process lives (`per-table`), or only serialised (`none`). The rejection of `work` is passed
   * on. Transactions do not nest and are serialised with the other writes of this process;
   * `capabilities.crossProcess` says what holds against other processes. A store with no
   * transactions implements it as `work()` behind its write queue and declares `none`.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Start a bulk change staged apart from the live data (see {@link StagedChange}). Present
   * when `capabilities.stagedChanges`; a store without it runs bulk changes in one
   * `transaction()`, which is then as all-or-nothing as `capabilities.transactions` says, and
   * refused when that is `none`.
   */
  stageChange?(options?: StageChangeOptions): Promise<StagedChange>;
  /**
   * Counts and sizes. Optional: without it memoir counts by paging through the memories and
   * records and estimates `bytes` from their JSON and embeddings.
   */
  stats?(): Promise<StoreStats>;
  /**
   * Check the stored data for damage (integrity of files and indexes) without changing
   * anything. Resolves with what was found rather than rejecting for damage, and works even
   * when the store cannot open because of it, so `doctor()` can report on it. Optional: a
   * store without it is checked by opening it and reading its counts.
   */
  check?(): Promise<StoreCheck>;
  /** Release resources. Further calls reject with a StoreError. Calling twice is harmless. */
  close(): Promise<void>;
}

/**
 * A {@link MemoryStore} with every optional member memoir falls back for when it is missing
 * (counts, access recording, embedding reset, stats) — what memoir's own stores are, so code
 * holding one calls them directly.
 *
 * @group Ports
 */
export type CompleteMemoryStore = MemoryStore &
  Required<Pick<MemoryStore, 'countMemories' | 'recordAccess' | 'resetEmbeddings' | 'stats'>>;
