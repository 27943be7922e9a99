import { dirname } from 'node:path';
import { StoreError } from '../../core/spec/errors.js';
import type { Memory } from '../../core/spec/memory.js';
import type { Entity, Opinion, Procedure, Session } from '../../core/spec/records.js';
import type { Logger } from '../../core/spec/runtime.js';
import type {
  EmbedderIdentity,
  LexicalSearchQuery,
  ListMemoriesQuery,
  ListQuery,
  MemoryFilter,
  MemoryRecord,
  MemoryStore,
  RecordedEmbedder,
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
import { closedStoreError } from '../../core/store-kit/closed-state.js';
import { loadVectorKernel, type VectorKernel } from '../../core/store-kit/search-index/vector-kernel.js';
import { TransactionScope } from '../../core/store-kit/transaction-scope.js';
import { WriteQueue } from '../../core/store-kit/write-queue.js';
import { analyzeTerms } from '../../core/text/analyze.js';
import { dropSnapshot, writeSnapshot } from './search-index/index-snapshot.js';
import { SearchIndex, type SearchIndexStats } from './search-index/search-index.js';
import { checkSqliteFile, type SqliteFileCheck } from './sqlite-check.js';
import { SqliteCollection } from './sqlite-collection.js';
import { openConnection } from './sqlite-connection.js';
import type { SqliteDatabase } from './sqlite-driver.js';
import { damagedError, doctorCommand, isDamage, isReadOnlyFailure, readOnlyError } from './sqlite-errors.js';
import { memoryCondition } from './sqlite-filter.js';
import {
  blobToVector,
  MEMORY_COLUMNS,
  MEMORY_SELECT,
  type MemoryRow,
  memoryToRow,
  rowToMemory,
  vectorToBlob,
} from './sqlite-rows.js';
import { entityKey, newGeneration } from './sqlite-schema.js';
import { cachedStatement } from './statement-cache.js';

const COMPONENT = 'sqlite-store';

const ORDER_COLUMNS = {
  occurredAt: 'm.occurred_at',
  createdAt: 'm.created_at',
  updatedAt: 'm.updated_at',
  importance: 'm.importance',
} as const;

/** Deletions remembered for other processes' search indexes to catch up on, in write transactions. */
const TOMBSTONE_WINDOW = 10_000;

/**
 * How the store scans vectors: `usearch` (SIMD over int8, the optional `usearch` package) or
 * `javascript` (the same scan in plain JavaScript, about twenty times slower).
 *
 * @group Adapters
 */
export type VectorMode = VectorKernel['name'];

/** Settings the factory resolved. */
export interface SqliteStoreSettings {
  path: string;
  busyTimeoutMs: number;
  vectorSearch: 'auto' | 'javascript';
  indexSnapshotMinMemories: number;
  lexicalStatistics: 'store' | 'scope';
  readOnly: boolean | undefined;
  checkOnOpen: 'auto' | 'always' | 'off';
  logger: Logger | undefined;
}

function storeError(message: string, options: { suggestion?: string; cause?: unknown } = {}) {
  return new StoreError(message, { component: COMPONENT, ...options });
}

type OtherKind = Exclude<RecordKind, 'memory'>;

/**
 * A MemoryStore in one SQLite file, searched through an in-process index derived from it
 * (BM25 postings and int8 vectors, see SearchIndex); no SQLite extension is loaded.
 *
 * @group Adapters
 */
export class SqliteStore implements MemoryStore {
  readonly specificationVersion = 'v2' as const;
  readonly name = 'sqlite';
  /**
   * Transactions are SQLite's (`BEGIN IMMEDIATE` … `COMMIT`): atomic across every table, and
   * across a kill (the journal undoes an uncommitted one on the next open). Between processes
   * they are serialised by SQLite's write lock, and readers see only committed data.
   */
  readonly capabilities: StoreCapabilities = {
    persistent: true,
    transactions: 'atomic',
    crossProcess: 'serialised',
  };
  readonly #records: { [K in OtherKind]: SqliteCollection<StoredRecord<K>> };

  readonly #settings: SqliteStoreSettings;
  readonly #mutex = new WriteQueue();
  readonly #inTransaction = new TransactionScope(COMPONENT);
  #db: SqliteDatabase | undefined;
  #connecting: Promise<SqliteDatabase> | undefined;
  #kernel: VectorKernel | undefined;
  #snapshotting: Promise<void> | undefined;
  #index: SearchIndex | undefined;
  #dimensions: number | null = null;
  #closed = false;
  /** Why the store is read-only, or null while writable (known once connected). */
  #readOnly: string | null = null;
  /** Set on the first SQLITE_CORRUPT: no write goes into a file known to be damaged. */
  #damaged: StoreError | null = null;

  constructor(settings: SqliteStoreSettings) {
    this.#settings = settings;
    const host = {
      read: <T>(operation: (db: SqliteDatabase) => T) => this.#read(operation),
      write: <T>(operation: (db: SqliteDatabase) => T) => this.#write(operation),
    };
    this.#records = {
      opinion: new SqliteCollection<Opinion>(host, 'opinions'),
      procedure: new SqliteCollection<Procedure>(host, 'procedures'),
      session: new SqliteCollection<Session>(host, 'sessions'),
      entity: new SqliteCollection<Entity>(host, 'entities'),
    };
  }

  async get<K extends RecordKind>(kind: K, ids: readonly string[]): Promise<StoredRecord<K>[]> {
    if (kind === 'memory') return this.#getMemories(ids) as Promise<StoredRecord<K>[]>;
    return this.#collection(kind).get(ids) as Promise<StoredRecord<K>[]>;
  }

  async put<K extends RecordKind>(kind: K, records: readonly WrittenRecord<K>[]): Promise<void> {
    if (kind === 'memory') return this.#putMemories(records as readonly MemoryRecord[]);
    return this.#collection(kind).upsert(records as never);
  }

  async delete(kind: RecordKind, ids: readonly string[]): Promise<number> {
    if (kind === 'memory') return this.#deleteMemories(ids);
    return this.#collection(kind).delete(ids);
  }

  async list<K extends RecordKind>(kind: K, query?: ListQuery<K>): Promise<StoredRecord<K>[]> {
    if (kind === 'memory') return this.#listMemories(query as ListMemoriesQuery) as Promise<StoredRecord<K>[]>;
    return this.#collection(kind).list(query as RecordListQuery) as Promise<StoredRecord<K>[]>;
  }

  #collection(kind: RecordKind): SqliteCollection<{ id: string; scope: Memory['scope'] }> {
    const found = (this.#records as Record<string, SqliteCollection<{ id: string; scope: Memory['scope'] }>>)[kind];
    if (!found) throw storeError(`unknown record kind ${JSON.stringify(kind)}`);
    return found;
  }

  #closedError(): StoreError {
    return closedStoreError(this.#settings.path, {
      component: COMPONENT,
      suggestion: 'Create a new store with createSqliteStore().',
    });
  }

  /** How vectors are scanned (known once the store has connected; `javascript` before). */
  get vectorMode(): VectorMode {
    return this.#kernel?.name ?? 'javascript';
  }

  /** What the in-process search index holds, or null before the first search loads it. */
  searchIndexStats(): SearchIndexStats | null {
    return this.#index?.stats() ?? null;
  }

  /** The file this store lives in. */
  get path(): string {
    return this.#settings.path;
  }

  /** Why the store is read-only (e.g. its directory is not writable), or null when writable. */
  get readOnly(): string | null {
    return this.#readOnly;
  }

  async #connect(): Promise<SqliteDatabase> {
    if (this.#closed) throw this.#closedError();
    if (this.#db) return this.#db;
    this.#connecting ??= (async () => {
      const { db, readOnly } = await openConnection(this.#settings);
      this.#readOnly = readOnly;
      this.#kernel = await loadVectorKernel(this.#settings.vectorSearch, (reason) =>
        this.#settings.logger?.log(
          'warn',
          `usearch could not load (${reason}); vectors are scanned in JavaScript, which is slower past 10,000 memories`,
        ),
      );
      // A store opened before (or by another process) already names its embedder's dimensions.
      const recorded = Number(this.#meta(db, 'embedder_dimensions'));
      if (Number.isInteger(recorded) && recorded > 0) this.#dimensions = recorded;
      this.#db = db;
      return db;
    })();
    try {
      return await this.#connecting;
    } finally {
      this.#connecting = undefined;
    }
  }

  #refuseWrites() {
    if (this.#readOnly !== null) throw readOnlyError(this.#settings.path, this.#readOnly);
    if (this.#damaged) throw this.#damaged;
  }

  async #read<T>(operation: (db: SqliteDatabase) => T): Promise<T> {
    const db = await this.#connect();
    return this.#wrap(() => operation(db));
  }

  async #write<T>(operation: (db: SqliteDatabase) => T): Promise<T> {
    const db = await this.#connect();
    this.#refuseWrites();
    if (this.#inTransaction.inside) return this.#wrap(() => operation(db));
    const release = await this.#mutex.acquire();
    try {
      if (this.#closed) throw this.#closedError();
      this.#refuseWrites();
      const immediate = db.transaction(() => operation(db)) as unknown as { immediate(): T };
      return this.#wrap(() => immediate.immediate());
    } finally {
      release();
    }
  }

  #wrap<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      if (StoreError.isInstance(error)) throw error;
      const text = error instanceof Error ? error.message : String(error);
      if (isDamage(error)) {
        this.#damaged ??= damagedError(this.#settings.path, text, error);
        throw damagedError(this.#settings.path, text, error);
      }
      if (isReadOnlyFailure(error)) {
        throw readOnlyError(this.#settings.path, this.#readOnly ?? 'SQLite refused to write', { cause: error });
      }
      throw storeError(text, { cause: error });
    }
  }

  #meta(db: SqliteDatabase, key: string): string | undefined {
    return cachedStatement(db, 'SELECT value FROM memoir_meta WHERE key = ?', 'pluck').get(key) as string | undefined;
  }

  #setMeta(db: SqliteDatabase, key: string, value: string) {
    db.prepare(
      'INSERT INTO memoir_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  /** The search index, made for the store's dimensions (0 until an embedder is known). */
  #searchIndex(): SearchIndex {
    const dimensions = this.#dimensions ?? 0;
    if (this.#index?.dimensions !== dimensions) {
      this.#index = new SearchIndex(this.#connectedKernel(), dimensions, {
        snapshotMinMemories: this.#settings.indexSnapshotMinMemories,
        scopedStatistics: this.#settings.lexicalStatistics === 'scope',
      });
    }
    return this.#index;
  }

  // After a search that built a large index from rows: write it into the file in the
  // background, so the next process reads it back. A failure costs only that head start.
  #snapshotLater() {
    const index = this.#index;
    if (!index?.snapshotDue || this.#readOnly !== null || this.#damaged || this.#snapshotting) return;
    // Outside any transaction() the search ran in: the snapshot is a write of its own.
    this.#snapshotting = this.#inTransaction.exit(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      try {
        await this.#write((db) => {
          if (this.#index === index && index.snapshotDue) writeSnapshot(db, index.snapshotParts());
        });
      } catch (error) {
        this.#settings.logger?.log(
          'debug',
          `the search index was not written into ${this.#settings.path}: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        this.#snapshotting = undefined;
      }
    });
  }

  #connectedKernel(): VectorKernel {
    if (!this.#kernel) throw storeError('the store searched before it connected');
    return this.#kernel;
  }

  #nextChangeSeq(db: SqliteDatabase): number {
    return Number(
      db
        .prepare(
          "INSERT INTO memoir_meta (key, value) VALUES ('change_seq', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value",
        )
        .pluck()
        .get(),
    );
  }

  async open(embedder: EmbedderIdentity): Promise<void> {
    if (
      typeof embedder?.id !== 'string' ||
      !embedder.id ||
      !Number.isInteger(embedder.dimensions) ||
      embedder.dimensions <= 0
    ) {
      throw storeError('open() expects an embedder identity with a non-empty id and positive integer dimensions');
    }
    await this.#connect();
    // Read-only: the embedder is checked, not recorded.
    const access = this.#readOnly === null ? this.#write.bind(this) : this.#read.bind(this);
    await access((db) => {
      const recordedId = this.#meta(db, 'embedder_id');
      const recordedDimensions = Number(this.#meta(db, 'embedder_dimensions') ?? Number.NaN);
      const storedDimensions = db
        .prepare('SELECT length(embedding) / 4 FROM memory_embeddings LIMIT 1')
        .pluck()
        .get() as number | undefined;
      const held = storedDimensions ?? null;
      const differs =
        (recordedId !== undefined && recordedId !== embedder.id) ||
        (held !== null && held !== embedder.dimensions) ||
        (recordedId !== undefined && recordedDimensions !== embedder.dimensions);
      if (held !== null && differs) {
        throw storeError(
          `${this.#settings.path} holds vectors from embedder "${recordedId ?? 'unknown'}" (${held} dimensions), but was opened with "${embedder.id}" (${embedder.dimensions} dimensions); their vectors don't compare`,
          {
            suggestion: `Run \`memoir reindex --home ${dirname(this.#settings.path)}\` to re-embed every memory with the new embedder, or open the store with the embedder it was built with.`,
          },
        );
      }
      if (this.#readOnly === null) {
        this.#setMeta(db, 'embedder_id', embedder.id);
        this.#setMeta(db, 'embedder_dimensions', String(embedder.dimensions));
      }
      this.#dimensions = embedder.dimensions;
    });
  }

  /** The embedder recorded in `memoir_meta`, read without checking or recording anything. */
  recordedEmbedder(): Promise<RecordedEmbedder | null> {
    return this.#read((db) => {
      const id = this.#meta(db, 'embedder_id');
      const dimensions = Number(this.#meta(db, 'embedder_dimensions'));
      if (id === undefined || !Number.isInteger(dimensions) || dimensions <= 0) return null;
      // EXISTS, not count(*): counting would read every vector's page.
      const hasEmbeddings = db.prepare('SELECT EXISTS (SELECT 1 FROM memory_embeddings)').pluck().get() === 1;
      return { id, dimensions, hasEmbeddings };
    });
  }

  /** Drop every stored vector and record a new embedder; `reindex` then re-embeds. */
  async resetEmbeddings(embedder: EmbedderIdentity): Promise<void> {
    await this.#write((db) => {
      db.exec('DELETE FROM memory_embeddings');
      db.exec('UPDATE memories SET has_embedding = 0 WHERE has_embedding = 1');
      this.#setMeta(db, 'embedder_id', embedder.id);
      this.#setMeta(db, 'embedder_dimensions', String(embedder.dimensions));
      // Every process's search index holds the old vectors: a new generation makes each reload.
      this.#setMeta(db, 'index_generation', newGeneration());
      dropSnapshot(db);
      this.#dimensions = embedder.dimensions;
      this.#index?.markChanged();
    });
  }

  #getMemories(ids: readonly string[]): Promise<Memory[]> {
    return this.#read((db) => {
      const rows = cachedStatement(
        db,
        `SELECT ${MEMORY_SELECT} FROM memories m WHERE m.id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(ids)) as MemoryRow[];
      const byId = new Map(rows.map((row) => [row.id, row]));
      const found: Memory[] = [];
      for (const id of ids) {
        const row = byId.get(id);
        if (row) found.push(rowToMemory(row));
      }
      return found;
    });
  }

  #putMemories(records: readonly MemoryRecord[]): Promise<void> {
    return this.#write((db) => {
      const dimensions = this.#dimensions;
      records.forEach(({ memory, embedding }, index) => {
        if (embedding !== null && dimensions !== null && embedding.length !== dimensions) {
          throw storeError(
            `records[${index}].embedding: expected ${dimensions} dimensions, got ${embedding.length} (memory "${memory.id}")`,
            {
              suggestion:
                'Embed every memory with the embedder the store was opened with; after changing embedders run `memoir reindex`.',
            },
          );
        }
      });
      if (records.length === 0) return;
      const seq = this.#nextChangeSeq(db);
      const columns = [...MEMORY_COLUMNS, 'change_seq', 'has_embedding'];
      // New memories take a plain INSERT: an upsert with RETURNING costs a third of retain.
      const insert = db.prepare(
        `INSERT INTO memories (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      const update = db.prepare(
        `UPDATE memories SET ${columns
          .filter((column) => column !== 'id')
          .map((column) => `${column} = ?`)
          .join(', ')} WHERE rowid = ?`,
      );
      const clearEntities = db.prepare('DELETE FROM memory_entities WHERE memory_rowid = ?');
      const addEntity = db.prepare('INSERT OR IGNORE INTO memory_entities (memory_rowid, entity_key) VALUES (?, ?)');
      const addEmbedding = db.prepare('INSERT INTO memory_embeddings (memory_rowid, embedding) VALUES (?, ?)');
      const setEmbedding = db.prepare(
        'INSERT INTO memory_embeddings (memory_rowid, embedding) VALUES (?, ?) ON CONFLICT (memory_rowid) DO UPDATE SET embedding = excluded.embedding',
      );
      const clearEmbedding = db.prepare('DELETE FROM memory_embeddings WHERE memory_rowid = ?');
      const rowidOf = new Map(
        (
          db
            .prepare('SELECT id, rowid FROM memories WHERE id IN (SELECT value FROM json_each(?))')
            .raw(true)
            .all(JSON.stringify(records.map((record) => record.memory.id))) as Array<[string, number]>
        ).map(([id, rowid]) => [id, Number(rowid)]),
      );
      for (const { memory, embedding } of records) {
        const row = memoryToRow(memory);
        let rowid = rowidOf.get(memory.id);
        if (rowid === undefined) {
          rowid = Number(insert.run(...row, seq, embedding === null ? 0 : 1).lastInsertRowid);
          rowidOf.set(memory.id, rowid);
          for (const entity of memory.entities) addEntity.run(rowid, entityKey(entity));
          if (embedding !== null) addEmbedding.run(rowid, vectorToBlob(embedding));
          continue;
        }
        update.run(...row.slice(1), seq, embedding === null ? 0 : 1, rowid);
        clearEntities.run(rowid);
        for (const entity of memory.entities) addEntity.run(rowid, entityKey(entity));
        if (embedding !== null) setEmbedding.run(rowid, vectorToBlob(embedding));
        else clearEmbedding.run(rowid);
      }
      this.#index?.markChanged();
    });
  }

  #deleteMemories(ids: readonly string[]): Promise<number> {
    return this.#write((db) => {
      const rowids = db
        .prepare('SELECT rowid FROM memories WHERE id IN (SELECT value FROM json_each(?))')
        .pluck()
        .all(JSON.stringify(ids)) as number[];
      if (rowids.length === 0) return 0;
      const list = JSON.stringify(rowids.map(Number));
      const seq = this.#nextChangeSeq(db);
      // Other processes' search indexes learn of deletions here; old ones are pruned, and an
      // index that fell further behind than the window reloads in full.
      db.prepare('INSERT INTO memory_tombstones (memory_rowid, change_seq) SELECT value, ? FROM json_each(?)').run(
        seq,
        list,
      );
      const floor = seq - TOMBSTONE_WINDOW;
      if (floor > 0) {
        db.prepare('DELETE FROM memory_tombstones WHERE change_seq <= ?').run(floor);
        this.#setMeta(db, 'tombstone_floor', String(floor));
      }
      const deleted = db
        .prepare('DELETE FROM memories WHERE rowid IN (SELECT value FROM json_each(?))')
        .run(list).changes;
      this.#index?.markChanged();
      return deleted;
    });
  }

  #listMemories(query: ListMemoriesQuery = {}): Promise<Memory[]> {
    return this.#read((db) => {
      const condition = memoryCondition(query.filter);
      const column = ORDER_COLUMNS[query.orderBy ?? 'createdAt'];
      const direction = query.direction === 'asc' ? 'ASC' : 'DESC';
      const limit = query.limit === undefined ? -1 : Math.max(0, Math.floor(query.limit));
      const offset = Math.max(0, Math.floor(query.offset ?? 0));
      const rows = db
        .prepare(
          `SELECT ${MEMORY_SELECT} FROM memories m WHERE ${condition.sql} ORDER BY ${column} ${direction}, m.id ASC LIMIT ? OFFSET ?`,
        )
        .all(...condition.params, limit, offset) as MemoryRow[];
      return rows.map(rowToMemory);
    });
  }

  count(filter?: MemoryFilter): Promise<number> {
    return this.#read((db) => {
      const condition = memoryCondition(filter);
      return db
        .prepare(`SELECT count(*) FROM memories m WHERE ${condition.sql}`)
        .pluck()
        .get(...condition.params) as number;
    });
  }

  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.#read((db) => {
      const rows = cachedStatement(
        db,
        'SELECT m.id AS id, e.embedding AS embedding FROM memories m JOIN memory_embeddings e ON e.memory_rowid = m.rowid WHERE m.id IN (SELECT value FROM json_each(?))',
      ).all(JSON.stringify(ids)) as Array<{ id: string; embedding: Uint8Array }>;
      return new Map(rows.map((row) => [row.id, blobToVector(row.embedding)]));
    });
  }

  listUnembedded(query: UnembeddedQuery): Promise<Memory[]> {
    return this.#read((db) => {
      const condition = memoryCondition(query.filter);
      const limit = Math.max(0, Math.floor(query.limit));
      const after = query.after === undefined ? '' : 'AND m.id > ?';
      const rows = db
        .prepare(
          `SELECT ${MEMORY_SELECT} FROM memories m
           WHERE m.has_embedding = 0 ${after} AND ${condition.sql}
           ORDER BY m.id ASC LIMIT ?`,
        )
        .all(...(query.after === undefined ? [] : [query.after]), ...condition.params, limit) as MemoryRow[];
      return rows.map(rowToMemory);
    });
  }

  async recordAccess(ids: readonly string[], at: string): Promise<void> {
    // Access counts are bookkeeping: a read-only store still answers recall, it just doesn't count.
    await this.#connect();
    if (this.#readOnly !== null) return;
    return this.#write((db) => {
      cachedStatement(
        db,
        'UPDATE memories SET access_count = access_count + 1, last_accessed_at = ? WHERE id IN (SELECT value FROM json_each(?))',
      ).run(at, JSON.stringify([...new Set(ids)]));
    });
  }

  searchLexical(query: LexicalSearchQuery): Promise<SearchHit[]> {
    return this.#read((db) => {
      const terms = [...new Set(analyzeTerms(query.text))];
      const limit = Math.max(0, Math.floor(query.limit));
      if (terms.length === 0 || limit === 0) return [];
      return this.#searchIndex().searchLexical(db, terms, query.filter, limit);
    }).finally(() => this.#snapshotLater());
  }

  searchVector(query: VectorSearchQuery): Promise<SearchHit[]> {
    return this.#read((db) => {
      const vector = query.vector;
      if (!(vector instanceof Float32Array))
        throw storeError('searchVector: expected the query vector as a Float32Array');
      const dimensions = this.#dimensions ?? Number(this.#meta(db, 'embedder_dimensions') ?? vector.length);
      if (vector.length !== dimensions) {
        throw storeError(`searchVector: expected a query vector of ${dimensions} dimensions, got ${vector.length}`, {
          suggestion: 'Embed the query with the embedder the store was opened with.',
        });
      }
      const limit = Math.max(0, Math.floor(query.limit));
      if (limit === 0) return [];
      this.#dimensions ??= dimensions;
      return this.#searchIndex().searchVector(db, vector, query.filter, limit);
    }).finally(() => this.#snapshotLater());
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    this.#inTransaction.refuseNested();
    const db = await this.#connect();
    this.#refuseWrites();
    const release = await this.#mutex.acquire();
    try {
      if (this.#closed) throw this.#closedError();
      this.#refuseWrites();
      this.#wrap(() => db.exec('BEGIN IMMEDIATE'));
      try {
        const result = await this.#inTransaction.run(true, work);
        this.#wrap(() => db.exec('COMMIT'));
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        // A search inside the transaction may have indexed what was just rolled back.
        this.#index = undefined;
        throw error;
      }
    } finally {
      release();
    }
  }

  stats(): Promise<StoreStats> {
    return this.#read((db) => {
      const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
      const pages = db.pragma('page_count', { simple: true }) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      return {
        memories: count('memories'),
        opinions: count('opinions'),
        procedures: count('procedures'),
        sessions: count('sessions'),
        entities: count('entities'),
        bytes: pages * pageSize,
      };
    });
  }

  /**
   * Check the file for damage with {@link checkSqliteFile}, through a connection of its own:
   * it works on a store that cannot open because it is damaged, and changes nothing.
   */
  async check(): Promise<StoreCheck> {
    const path = this.#settings.path;
    if (path === ':memory:') {
      const rows = await this.#read((db) => db.prepare('PRAGMA integrity_check(20)').pluck().all() as string[]);
      const ok = rows.length === 1 && rows[0] === 'ok';
      return { ok, problems: ok ? [] : rows, details: { path } };
    }
    const result = await checkSqliteFile(path, {
      readOnly: this.#settings.readOnly === true,
      busyTimeoutMs: this.#settings.busyTimeoutMs,
    });
    return storeCheckOf(result);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#snapshotting;
    const release = await this.#mutex.acquire();
    try {
      if (this.#closed) return;
      this.#closed = true;
      if (this.#connecting) await this.#connecting.catch(() => undefined);
      if (this.#db?.open) {
        // Fold the WAL back into the main file so a copied database is complete on its own.
        try {
          this.#db.pragma('wal_checkpoint(TRUNCATE)');
        } catch {
          // another process may hold the WAL; its own close checkpoints it
        }
        this.#db.close();
      }
      this.#db = undefined;
      this.#index = undefined;
    } finally {
      release();
    }
  }
}

/** A file check in the port's terms, with what to do about it. */
function storeCheckOf(result: SqliteFileCheck): StoreCheck {
  const ok = result.status === 'ok' || result.status === 'missing';
  const suggestion =
    result.status === 'newer'
      ? 'Upgrade memoir to open this database.'
      : result.status === 'unreadable'
        ? 'Check the permissions of the file and its directory.'
        : ok
          ? undefined
          : `Run \`${doctorCommand(result.path)} --repair\` to move the file aside and salvage what it holds into a new one, or \`… --restore-backup\` to start from the newest backup that verifies; the damaged file is kept.`;
  return {
    ok,
    problems: result.problems,
    ...(suggestion ? { suggestion } : {}),
    details: {
      path: result.path,
      status: result.status,
      bytes: result.bytes,
      walBytes: result.walBytes,
      readOnly: result.readOnly,
      schemaVersion: result.schemaVersion,
      integrity: result.integrity,
      fullText: result.fullText,
      memories: result.counts?.memories ?? null,
    },
  };
}
