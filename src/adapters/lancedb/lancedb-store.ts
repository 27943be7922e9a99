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
  RecordKind as PortRecordKind,
  RecordedEmbedder,
  RecordListQuery,
  SearchHit,
  StageChangeOptions,
  StagedChange,
  StoreCapabilities,
  StoreCheck,
  StoredRecord,
  StoreStats,
  UnembeddedQuery,
  VectorSearchQuery,
  WrittenRecord,
} from '../../core/spec/store.js';
import { closedStoreError } from '../../core/store-kit/closed-state.js';
import { loadVectorKernel } from '../../core/store-kit/search-index/vector-kernel.js';
import { TransactionScope } from '../../core/store-kit/transaction-scope.js';
import { WriteQueue } from '../../core/store-kit/write-queue.js';
import { analyzeTerms } from '../../core/text/analyze.js';
import { compareHits } from '../../core/utils/top-hits.js';
import { PendingAccess } from './lancedb-access.js';
import { memoryRowsTable } from './lancedb-arrow.js';
import { LanceCallGate, StoreCallsInFlight } from './lancedb-call-gate.js';
import { LanceCollection, type LanceCollectionHost } from './lancedb-collection.js';
import { type LanceConnection, type LanceLibraries, type LanceTable, loadLanceLibraries } from './lancedb-driver.js';
import { andSql, memoryWhere, sqlIn, sqlString } from './lancedb-filter.js';
import {
  dropIndexSnapshot,
  readIndexSnapshot,
  snapshotTableName,
  writeIndexSnapshot,
} from './lancedb-index-snapshot.js';
import { IntentLog, type IntentTransaction } from './lancedb-intent-log.js';
import { isCommitConflict, LanceMaintenance, vectorIndexName } from './lancedb-maintenance.js';
import { type AddressedRow, RowAddresses } from './lancedb-row-addresses.js';
import { type MemoryRow, memoryToRow, plainRow, rowToMemory, toMs } from './lancedb-rows.js';
import {
  LANCE_MIGRATIONS,
  LANCE_SCHEMA_VERSION,
  type LanceTableNames,
  metaSchema,
  RECORD_KINDS,
  tableNames,
  vectorSqlType,
} from './lancedb-schema.js';
import { LanceSearchIndex, type LanceSearchIndexStats } from './lancedb-search-index.js';
import { hasStagedPlans, LanceStagedChange, recoverStagedChanges, type StagingHost } from './lancedb-staging.js';
import type { LanceIndexSettings } from './lancedb-store-options.js';

const COMPONENT = 'lancedb-store';

/** Every column of a memory but the vector and the analysed terms: what a read returns. */
const MEMORY_COLUMNS = [
  'id',
  'category',
  'abstract',
  'overview',
  'content',
  'source_session',
  'active_count',
  'created_at',
  'updated_at',
  'kind',
  'context',
  'entities',
  'agent_id',
  'user_id',
  'namespace',
  'source',
  'occurred_at',
  'valid_from',
  'valid_to',
  'invalidation_reason',
  'superseded_by',
  'importance',
  'bookmarked',
  'last_accessed_at',
  'fingerprint',
  'metadata',
];

const ORDER_COLUMNS = {
  occurredAt: 'occurred_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  importance: 'importance',
} as const;

/** Settings the factory resolved. */
export interface LanceStoreSettings {
  uri: string;
  tableName: string;
  storageOptions: Record<string, string> | undefined;
  apiKey: string | undefined;
  region: string | undefined;
  readConsistencyInterval: number;
  search: 'memoir' | 'native';
  indexSnapshotMinMemories: number;
  vectorKernel: 'auto' | 'javascript';
  index: LanceIndexSettings;
  commitRetries: number;
  metadataCacheBytes: number;
  indexCacheBytes: number | undefined;
  nativeLogLevel: string;
  logger: Logger;
}

function storeError(message: string, options: { suggestion?: string; cause?: unknown } = {}): StoreError {
  return new StoreError(message, { component: COMPONENT, ...options });
}

/**
 * Gathered accesses are written after this long, or at once when this many memories have some:
 * each write is a table version and a fragment, so recall running all day writes one every 5 s
 * rather than one a second (or one a query).
 */
const ACCESS_FLUSH_MS = 5000;
const ACCESS_FLUSH_SIZE = 5000;
/** How long the store trusts what it read about its vector index and a filter's row count. */
const CACHE_MS = 10_000;
/**
 * How often an open store looks for a transaction or bulk change a killed process left (one
 * count on the intent table, one query on the meta table): at most this often, before a read or
 * a write, so recall does not pay a round trip to object storage for it each time.
 */
const RECOVERY_CHECK_MS = 2000;
/**
 * A snapshot of memoir's index is written this long after it becomes due, so a burst of writes
 * or a search that follows a write is not slowed by it, and the burst is covered by one write.
 */
const SNAPSHOT_DELAY_MS = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A MemoryStore in LanceDB tables: a native full-text (BM25) index, a vector index past a row
 * threshold, scalar indexes on the scope columns; local, on object storage or LanceDB Cloud.
 *
 * @group Adapters
 */
export class LanceStore implements MemoryStore {
  readonly specificationVersion = 'v2' as const;
  readonly name = 'lancedb';
  /**
   * Transactions are `atomic`, also across a kill: before each write of a transaction the rows
   * it touches are logged, as they were, in an intent table; the commit is one delete of that
   * log; a transaction that rejects, or whose process died, is undone from it — by the next open
   * of the store, or within seconds by any store already open on this machine (a writer on
   * another machine after 10 minutes of silence). See lancedb-intent-log.ts.
   *
   * Between processes, `per-write`: each commit is retried on conflict so no acknowledged write
   * is lost, but transactions of different processes are not isolated — another process can
   * read a running transaction's writes before it commits, and a killed one's until it is
   * undone; an undo puts back the rows the transaction touched, also over a write another
   * process made to those same rows in between.
   *
   * Bulk changes (restore, import, clear) are staged (`stageChange`): written apart, switched in
   * by one commit, and finished by the next open after a kill (see lancedb-staging.ts).
   */
  readonly capabilities: StoreCapabilities = {
    persistent: true,
    transactions: 'atomic',
    crossProcess: 'per-write',
  };
  // Private, so the published declarations of LanceStore need no @lancedb/lancedb types,
  // which users without the peer lack.
  readonly #records: { [K in Exclude<PortRecordKind, 'memory'>]: LanceCollection<StoredRecord<K>> };

  readonly #settings: LanceStoreSettings;
  readonly #names: LanceTableNames;
  readonly #mutex = new WriteQueue();
  readonly #transaction = new TransactionScope<IntentTransaction>('lancedb');
  readonly #intents: IntentLog;
  #nextRecovery = 0;
  #recovering: Promise<void> | undefined;
  readonly #maintenance: LanceMaintenance;
  #libraries: LanceLibraries | undefined;
  #connection: LanceConnection | undefined;
  #connecting: Promise<LanceConnection> | undefined;
  readonly #tables = new Map<string, LanceTable>();
  readonly #opening = new Map<string, Promise<LanceTable>>();
  // Every handle comes through the gate, which closes it only once no call is running on it;
  // close() waits for the store's calls (see lancedb-call-gate.ts).
  readonly #gate = new LanceCallGate({
    onCloseError: (error) =>
      this.#settings.logger.log('debug', `lancedb: closing a handle failed: ${messageOf(error).slice(0, 300)}`),
  });
  readonly #calls = new StoreCallsInFlight();
  #dimensions: number | null = null;
  readonly #access = new PendingAccess();
  #indexedCache: { indexed: boolean; until: number } | undefined;
  readonly #countCache = new Map<string, { count: number; until: number }>();
  /** Where the rows recent searches found sit, so reading them next is a take by address. */
  readonly #addresses = new RowAddresses();
  /** memoir's in-process index, with `search: 'memoir'`; made on the first search. */
  #searchIndex: LanceSearchIndex | undefined;
  #snapshotTimer: NodeJS.Timeout | undefined;
  #snapshotPending: { index: LanceSearchIndex; afterMaintenance: boolean } | undefined;
  #snapshotting: Promise<void> | undefined;
  #fillingFloats: NodeJS.Timeout | Promise<void> | undefined;
  #accessTimer: NodeJS.Timeout | undefined;
  #closing = false;
  #closed = false;
  #closePromise: Promise<void> | undefined;

  constructor(settings: LanceStoreSettings) {
    this.#settings = settings;
    this.#names = tableNames(settings.tableName);
    const host: LanceCollectionHost = {
      read: (table, operation) => this.#read(table, operation),
      write: (table, ids, operation) => this.#write(table, ids, operation),
      upsertRows: async (table, rows) => {
        await this.#upsertRows(table, rows);
      },
    };
    this.#records = {
      opinion: new LanceCollection<Opinion>(host, this.#names.opinions),
      procedure: new LanceCollection<Procedure>(host, this.#names.procedures),
      session: new LanceCollection<Session>(host, this.#names.sessions),
      entity: new LanceCollection<Entity>(host, this.#names.entities),
    };
    this.#intents = new IntentLog({
      name: `${settings.tableName}_intents`,
      local: isLocalUri(settings.uri),
      libraries: () => this.#libraries!,
      connection: async () => this.#connection ?? (await this.#connect()),
      table: (name) => this.#table(name),
      arrowRows: (live, rows) => this.#arrowRows(live, rows),
      write: (operation) => this.#wrap(() => this.#retrying(operation)),
      exclusive: (operation) => this.#exclusive(operation),
      written: (table, ids) => this.#putBack(table, ids),
    });
    this.#maintenance = new LanceMaintenance(
      () => this.#libraries!,
      (name) => this.#table(name),
      this.#names.memories,
      // memoir's index answers vector searches: LanceDB's own vector index would be a second
      // copy of every vector on disk (about 100 MiB at 100k) that no search reads.
      settings.search === 'memoir' ? { ...settings.index, vector: 'none' } : settings.index,
      () => this.#dimensions,
      settings.logger,
      // See CommitLock: on a directory a collision is detected and retried, so writers never wait.
      isLocalUri(settings.uri) ? undefined : (commit) => this.#underWriteLock(commit),
      // The round left the table as it stays: a good moment for the next process's head start.
      () => this.#snapshotLater(true),
    );
  }

  async get<K extends PortRecordKind>(kind: K, ids: readonly string[]): Promise<StoredRecord<K>[]> {
    if (kind === 'memory') return this.#getMemories(ids) as Promise<StoredRecord<K>[]>;
    return this.#collection(kind).get(ids) as Promise<StoredRecord<K>[]>;
  }

  async put<K extends PortRecordKind>(kind: K, records: readonly WrittenRecord<K>[]): Promise<void> {
    if (kind === 'memory') return this.#putMemories(records as readonly MemoryRecord[]);
    return this.#collection(kind).upsert(records as never);
  }

  async delete(kind: PortRecordKind, ids: readonly string[]): Promise<number> {
    if (kind === 'memory') return this.#deleteMemories(ids);
    return this.#collection(kind).delete(ids);
  }

  async list<K extends PortRecordKind>(kind: K, query?: ListQuery<K>): Promise<StoredRecord<K>[]> {
    if (kind === 'memory') return this.#listMemories(query as ListMemoriesQuery) as Promise<StoredRecord<K>[]>;
    return this.#collection(kind).list(query as RecordListQuery) as Promise<StoredRecord<K>[]>;
  }

  #collection(kind: PortRecordKind): LanceCollection<{ id: string; scope: Memory['scope'] }> {
    const found = (this.#records as Record<string, LanceCollection<{ id: string; scope: Memory['scope'] }>>)[kind];
    if (!found) throw storeError(`unknown record kind ${JSON.stringify(kind)}`);
    return found;
  }

  /** Where the tables live: a directory or an object-store URI. */
  get uri(): string {
    return this.#settings.uri;
  }

  /** Who answers searches: `memoir` (the in-process index) or `native` (LanceDB's indexes). */
  get searchSettings(): 'memoir' | 'native' {
    return this.#settings.search;
  }

  /** The vector index and maintenance settings in force (options with their defaults). */
  get indexSettings(): Readonly<LanceIndexSettings> {
    return this.#settings.index;
  }

  // ---- connection, tables, locking ----

  async #connect(): Promise<LanceConnection> {
    this.#assertOpen();
    // While connecting, the connection is set before a killed process's change is recovered:
    // other callers wait for the recovery rather than read a half-applied change.
    if (this.#connection && !this.#connecting) return this.#connection;
    this.#connecting ??= (async () => {
      const libraries = await loadLanceLibraries(this.#settings.nativeLogLevel);
      this.#libraries = libraries;
      const { uri, storageOptions, apiKey, region, readConsistencyInterval } = this.#settings;
      const session = new libraries.lancedb.Session(
        this.#settings.indexCacheBytes === undefined ? undefined : BigInt(this.#settings.indexCacheBytes),
        BigInt(this.#settings.metadataCacheBytes),
      );
      let connection: LanceConnection;
      try {
        connection = this.#gate.track(
          await libraries.lancedb.connect(
            uri,
            {
              storageOptions,
              readConsistencyInterval,
              ...(apiKey ? { apiKey } : {}),
              ...(region ? { region } : {}),
            },
            session,
          ),
        );
      } catch (cause) {
        throw storeError(`cannot open LanceDB at ${uri}: ${messageOf(cause)}`, {
          cause,
          suggestion: 'Check the URI, and for object storage the credentials and endpoint in storageOptions.',
        });
      }
      await this.#migrate(connection, libraries);
      this.#connection = connection;
      this.#calls.outside(() => this.#maintenance.schedule(this.#settings.index.compactEveryMs));
      const memories = await this.#table(this.#names.memories);
      this.#dimensions = vectorDimensions(await memories.schema());
      // A transaction a killed process left is undone, a bulk change it decided is finished, one
      // it had not decided is dropped, before anything is read: the data is the old or the new.
      try {
        await this.#intents.open();
        await this.#intents.recover();
        await recoverStagedChanges(this.#stagingHost());
        this.#nextRecovery = Date.now() + RECOVERY_CHECK_MS;
      } catch (error) {
        this.#connection = undefined;
        throw error;
      }
      return connection;
    })();
    try {
      return await this.#connecting;
    } finally {
      this.#connecting = undefined;
    }
  }

  async #migrate(connection: LanceConnection, libraries: LanceLibraries): Promise<void> {
    const meta = await connection.createEmptyTable(this.#names.meta, metaSchema(libraries.arrow), {
      mode: 'create',
      existOk: true,
    });
    this.#tables.set(this.#names.meta, meta);
    const version = Number((await this.#readMeta(meta, 'schema_version')) ?? 0);
    if (version > LANCE_SCHEMA_VERSION) {
      throw storeError(
        `${this.#settings.uri} has schema version ${version}, newer than this memoir's ${LANCE_SCHEMA_VERSION}`,
        { suggestion: 'Upgrade memoir to open these tables.' },
      );
    }
    const context = {
      libraries,
      connection,
      names: this.#names,
      open: (name: string) => connection.openTable(name),
    };
    for (let step = version; step < LANCE_SCHEMA_VERSION; step++) {
      // Two processes opening a new directory at once race to create the same indexes; a step
      // checks what exists before it creates, so the loser simply runs it again.
      await this.#retrying(() => LANCE_MIGRATIONS[step]!.up(context));
      await this.#writeMeta(meta, { schema_version: String(step + 1) });
    }
  }

  // One handle per table: callers asking at once share one open rather than each open one and
  // leave all but the last unclosed.
  async #table(name: string): Promise<LanceTable> {
    const cached = this.#tables.get(name);
    if (cached) return cached;
    let opening = this.#opening.get(name);
    if (!opening) {
      opening = (async () => {
        const connection = this.#connection ?? (await this.#connect());
        const table = await connection.openTable(name);
        this.#tables.set(name, table);
        return table;
      })();
      this.#opening.set(name, opening);
      const done = () => this.#opening.delete(name);
      opening.then(done, done);
    }
    return opening;
  }

  #assertOpen(): void {
    // While closing, calls started before close() (and those they make) carry on.
    if (this.#closed || (this.#closing && !this.#transaction.current() && !this.#calls.inside)) {
      throw closedStoreError(this.#settings.uri, {
        component: 'lancedb',
        suggestion: 'Create a new store with createLanceStore().',
      });
    }
  }

  // Async, so a closed store rejects rather than throws (the checks before the first await
  // still run when the call is made).
  async #read<R>(name: string, operation: (table: LanceTable) => Promise<R>): Promise<R> {
    this.#assertOpen();
    return this.#calls.run(async () => {
      await this.#connect();
      await this.#recoverDue();
      const table = await this.#table(name);
      return this.#wrap(() => operation(table));
    });
  }

  async #write<R>(name: string, ids: readonly string[], operation: (table: LanceTable) => Promise<R>): Promise<R> {
    this.#assertOpen();
    return this.#calls.run(() => this.#writeNow(name, ids, operation));
  }

  async #writeNow<R>(name: string, ids: readonly string[], operation: (table: LanceTable) => Promise<R>): Promise<R> {
    await this.#connect();
    const table = await this.#table(name);
    const transaction = this.#transaction.current();
    if (transaction) {
      // The rows' state before the write is on disk before the write: a kill from here on is undone.
      await this.#wrap(() => this.#intents.note(transaction, table, ids));
      return this.#committed(name, ids, () => this.#wrap(() => this.#retrying(() => operation(table))));
    }
    await this.#recoverDue();
    const release = await this.#mutex.acquire();
    try {
      this.#assertOpen();
      return await this.#committed(name, ids, () => this.#wrap(() => this.#retrying(() => operation(table))));
    } finally {
      release();
    }
  }

  async #committed<R>(name: string, ids: readonly string[], write: () => Promise<R>): Promise<R> {
    const result = await write();
    // Writes that name no rows (the embedder, access counts) start no round of maintenance
    // here: at 1M rows each round rewrote the vector index, and access counts are written every
    // second while recall runs (498 index versions, 18 GB, before this). Access writes are
    // counted apart, at a quarter of a commit (#flushAccess).
    if (ids.length > 0) this.#maintenance.noteWrites(name, ids.length);
    return result;
  }

  async #wrap<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (error) {
      if (StoreError.isInstance(error)) throw error;
      throw storeError(`LanceDB failed: ${messageOf(error)}`, { cause: error });
    }
  }

  async #retrying<R>(operation: () => Promise<R>): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await operation();
      } catch (error) {
        if (attempt >= this.#settings.commitRetries || !isCommitConflict(error)) throw error;
        // Jittered backoff, so two processes that collided do not collide again in step.
        await sleep(Math.min(200, 5 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random()));
      }
    }
  }

  /**
   * Look for what a killed process left (a transaction to undo, a bulk change to finish) when
   * the last look is older than RECOVERY_CHECK_MS; concurrent callers wait for the same look.
   * Never from inside a transaction, which holds the write lock recovery takes.
   */
  async #recoverDue(): Promise<void> {
    if (this.#transaction.current()) return;
    if (this.#recovering) return this.#recovering;
    if (Date.now() < this.#nextRecovery) return;
    this.#nextRecovery = Date.now() + RECOVERY_CHECK_MS;
    this.#recovering = (async () => {
      const host = this.#stagingHost();
      if (await this.#intents.pending()) await this.#intents.recover();
      if (await hasStagedPlans(host)) await recoverStagedChanges(host, { orphans: false });
    })();
    try {
      await this.#wrap(() => this.#recovering!);
    } finally {
      this.#recovering = undefined;
    }
  }

  /** Run `commit` holding the write lock, whether or not the store is closing (close waits for it). */
  async #underWriteLock<R>(commit: () => Promise<R>): Promise<R> {
    const release = await this.#mutex.acquire();
    try {
      return await commit();
    } finally {
      release();
    }
  }

  async #exclusive<R>(operation: () => Promise<R>): Promise<R> {
    const release = await this.#mutex.acquire();
    try {
      if (this.#closed) this.#assertOpen();
      return await operation();
    } finally {
      release();
    }
  }

  /** Rows of `table` were put back or replaced by a bulk change: drop what is cached about them. */
  #putBack(table: string, ids: readonly string[]): void {
    if (table === this.#names.memories) this.#access.forget(ids);
    this.#maintenance.noteWrites(table, ids.length);
    this.#indexedCache = undefined;
    this.#countCache.clear();
    this.#addresses.clear();
  }

  async #arrowRows(table: LanceTable, rows: readonly object[]) {
    if (table.name === this.#names.memories && this.#dimensions !== null) {
      return memoryRowsTable(this.#libraries!.arrow, rows as MemoryRow[], this.#dimensions);
    }
    const schema = await table.schema();
    const plain = rows.map((row) => {
      const vector = (row as { vector?: unknown }).vector;
      return vector instanceof Float32Array ? { ...row, vector: Array.from(vector) } : row;
    });
    return this.#libraries!.lancedb.makeArrowTable(plain as Array<Record<string, unknown>>, { schema });
  }

  /** Insert or replace rows by id: a plain append when none of the ids is there yet. */
  async #upsertRows(table: LanceTable, rows: readonly object[]): Promise<number> {
    const ids = rows.map((row) => (row as { id: string }).id);
    const data = await this.#arrowRows(table, rows);
    const transaction = this.#transaction.current();
    const known = transaction ? this.#intents.knownAbsent(transaction, table.name, ids) : undefined;
    const absent = known ?? (await table.countRows(sqlIn('id', ids))) === 0;
    if (absent) return (await table.add(data)).version;
    return (await table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data)).version;
  }

  async #readMeta(meta: LanceTable, key: string): Promise<string | undefined> {
    const rows = (await meta
      .query()
      .where(`key = ${sqlString(key)}`)
      .toArray()) as Array<{ value: string }>;
    return rows[0]?.value;
  }

  async #writeMeta(meta: LanceTable, values: Record<string, string>): Promise<void> {
    const rows = Object.entries(values).map(([key, value]) => ({ key, value }));
    await this.#retrying(async () => {
      await meta.mergeInsert('key').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
    });
  }

  // ---- embedder ----

  async open(embedder: EmbedderIdentity): Promise<void> {
    if (
      typeof embedder?.id !== 'string' ||
      !embedder.id ||
      !Number.isInteger(embedder.dimensions) ||
      embedder.dimensions <= 0
    ) {
      throw storeError('open() expects an embedder identity with a non-empty id and positive integer dimensions');
    }
    await this.#write(this.#names.memories, [], async (memories) => {
      const meta = await this.#table(this.#names.meta);
      const recordedId = await this.#readMeta(meta, 'embedder_id');
      const held = this.#dimensions !== null && (await hasVectors(memories)) ? this.#dimensions : null;
      if (held !== null && ((recordedId !== undefined && recordedId !== embedder.id) || held !== embedder.dimensions)) {
        throw storeError(
          `${this.#settings.uri} holds vectors from embedder "${recordedId ?? 'unknown'}" (${held} dimensions), but was opened with "${embedder.id}" (${embedder.dimensions} dimensions); their vectors don't compare`,
          {
            suggestion:
              'Run `memoir reindex` to re-embed every memory with the new embedder, or open the store with the embedder it was built with.',
          },
        );
      }
      if (this.#dimensions !== embedder.dimensions) await this.#replaceVectorColumn(memories, embedder.dimensions);
      await this.#writeMeta(meta, { embedder_id: embedder.id, embedder_dimensions: String(embedder.dimensions) });
    });
  }

  // The column's type carries the dimensions, so another embedder means another column.
  async #replaceVectorColumn(memories: LanceTable, dimensions: number): Promise<void> {
    const index = await vectorIndexName(memories);
    if (index) await memories.dropIndex(index);
    if (this.#dimensions !== null) await memories.dropColumns(['vector']);
    if (this.#dimensions !== null) {
      await memories.update({ where: 'embedded = true', valuesSql: { embedded: 'false' } });
    }
    // A snapshot of memoir's index holds the old vectors: no process may start from it.
    await dropIndexSnapshot(this.#connection!, snapshotTableName(this.#settings.tableName));
    try {
      await memories.addColumns([{ name: 'vector', valueSql: `arrow_cast(NULL, '${vectorSqlType(dimensions)}')` }]);
    } catch (error) {
      // Another process opening the same new directory added it first: theirs will do.
      if (vectorDimensions(await memories.schema()) !== dimensions) throw error;
    }
    this.#dimensions = dimensions;
    this.#indexedCache = undefined;
  }

  /** The embedder recorded in the meta table, read without checking or recording anything. */
  recordedEmbedder(): Promise<RecordedEmbedder | null> {
    return this.#read(this.#names.memories, async (memories) => {
      const meta = await this.#table(this.#names.meta);
      const id = await this.#readMeta(meta, 'embedder_id');
      const dimensions = Number(await this.#readMeta(meta, 'embedder_dimensions'));
      if (id === undefined || !Number.isInteger(dimensions) || dimensions <= 0) return null;
      return { id, dimensions, hasEmbeddings: this.#dimensions !== null && (await hasVectors(memories)) };
    });
  }

  /** Drop every stored vector (and the vector index) and record a new embedder; `reindex` then re-embeds. */
  async resetEmbeddings(embedder: EmbedderIdentity): Promise<void> {
    await this.#write(this.#names.memories, [], async (memories) => {
      const meta = await this.#table(this.#names.meta);
      await this.#replaceVectorColumn(memories, embedder.dimensions);
      await this.#writeMeta(meta, { embedder_id: embedder.id, embedder_dimensions: String(embedder.dimensions) });
    });
  }

  // ---- memories ----

  #getMemories(ids: readonly string[]): Promise<Memory[]> {
    return this.#read(this.#names.memories, async (table) => {
      if (ids.length === 0) return [];
      const byId = await this.#memoryRowsById(table, [...new Set(ids)]);
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [this.#access.overlay(rowToMemory(row))] : [];
      });
    });
  }

  // Rows a search just found are taken by address (see lancedb-row-addresses.ts); the rest by id.
  async #memoryRowsById(table: LanceTable, ids: readonly string[]): Promise<Map<string, MemoryRow>> {
    const byId = new Map<string, MemoryRow>();
    const { addresses } = this.#addresses.lookup(ids);
    if (addresses.length > 0) {
      const wanted = new Set(ids);
      const taken = (await table.takeRowIds(addresses).select(MEMORY_COLUMNS).withRowId().toArray()) as Array<
        MemoryRow & AddressedRow
      >;
      for (const row of taken) if (wanted.has(row.id) && this.#addresses.holds(row)) byId.set(row.id, row);
    }
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      const rows = (await table.query().where(sqlIn('id', missing)).select(MEMORY_COLUMNS).toArray()) as MemoryRow[];
      for (const row of rows) byId.set(row.id, row);
    }
    return byId;
  }

  /** Check and convert a batch of memories to rows, by id (a later one wins); nothing is written. */
  #memoryRows(records: readonly MemoryRecord[]): Map<string, MemoryRow> {
    const dimensions = this.#dimensions;
    const latest = new Map<string, MemoryRow>();
    records.forEach(({ memory, embedding }, index) => {
      if (typeof memory?.id !== 'string' || memory.id.length === 0) {
        throw storeError(`records[${index}].memory: expected a memory with a non-empty id`);
      }
      if (embedding !== null) {
        if (!(embedding instanceof Float32Array)) {
          throw storeError(`records[${index}].embedding: expected a Float32Array or null`);
        }
        if (dimensions === null || embedding.length !== dimensions) {
          throw storeError(
            `records[${index}].embedding: expected ${dimensions ?? 'no'} dimensions, got ${embedding.length} (memory "${memory.id}")`,
            {
              suggestion:
                'Embed every memory with the embedder the store was opened with; after changing embedders run `memoir reindex`.',
            },
          );
        }
      }
      latest.set(memory.id, memoryToRow(memory, embedding));
    });
    return latest;
  }

  async #putMemories(records: readonly MemoryRecord[]): Promise<void> {
    this.#assertOpen();
    // Check and convert the whole batch first: nothing is written unless all of it can be.
    const latest = this.#memoryRows(records);
    await this.#write(this.#names.memories, [...latest.keys()], async (table) => {
      if (latest.size === 0) return;
      const version = await this.#upsertRows(table, [...latest.values()]);
      this.#searchIndex?.applyOwnWrite(version, { put: [...latest.values()] });
      this.#access.forget([...latest.keys()]);
    });
    this.#snapshotLater(false);
  }

  async #deleteMemories(ids: readonly string[]): Promise<number> {
    const unique = [...new Set(ids)];
    const deleted = await this.#write(this.#names.memories, unique, async (table) => {
      if (unique.length === 0) return 0;
      const where = sqlIn('id', unique);
      const count = await table.countRows(where);
      if (count > 0) {
        const { version } = await table.delete(where);
        this.#searchIndex?.applyOwnWrite(version, { deleted: unique });
      }
      this.#access.forget(unique);
      return count;
    });
    this.#snapshotLater(false);
    return deleted;
  }

  /** Memories matching `filter` without a vector, in id order after `after`: read off the `embedded` flag. */
  listUnembedded(query: UnembeddedQuery): Promise<Memory[]> {
    return this.#read(this.#names.memories, async (table) => {
      const limit = Math.max(0, Math.floor(query.limit));
      if (limit === 0) return [];
      const after = query.after;
      const where = andSql(
        memoryWhere(query.filter),
        'embedded = false',
        after === undefined ? null : `id > ${sqlString(after)}`,
      );
      const ids = ((await table.query().where(where!).select(['id']).toArray()) as Array<{ id: string }>)
        .map((row) => row.id)
        // JavaScript's order (UTF-16), which the caller's `after` comes from.
        .filter((id) => after === undefined || id > after)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, limit);
      return ids.length === 0 ? [] : this.#getMemories(ids);
    });
  }

  #listMemories(query: ListMemoriesQuery = {}): Promise<Memory[]> {
    return this.#read(this.#names.memories, async (table) => {
      const column = ORDER_COLUMNS[query.orderBy ?? 'createdAt'];
      const sign = query.direction === 'asc' ? 1 : -1;
      const where = memoryWhere(query.filter);
      const start = Math.max(0, Math.floor(query.offset ?? 0));
      const end = query.limit === undefined ? undefined : start + Math.max(0, Math.floor(query.limit));
      const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) => {
        const x = a[column] as number;
        const y = b[column] as number;
        if (x !== y) return (x < y ? -1 : 1) * sign;
        return (a.id as string) < (b.id as string) ? -1 : (a.id as string) > (b.id as string) ? 1 : 0;
      };
      // A filter naming ids, fingerprints or a session matches few rows: one query for whole rows.
      if (query.filter?.ids || query.filter?.fingerprints || query.filter?.sessionId !== undefined) {
        const rows = (await table
          .query()
          .where(where ?? 'true')
          .select(MEMORY_COLUMNS)
          .toArray()) as unknown as Array<Record<string, unknown>>;
        return rows
          .sort(byKey)
          .slice(start, end)
          .map((row) => this.#access.overlay(rowToMemory(row as unknown as MemoryRow)));
      }
      // Otherwise sort keys first (two narrow columns), then whole rows only for the page.
      let keysQuery = table.query().select(['id', column]);
      if (where) keysQuery = keysQuery.where(where);
      const keys = (await keysQuery.toArray()) as Array<Record<string, unknown>>;
      keys.sort(byKey);
      const page = keys.slice(start, end).map((row) => row.id as string);
      if (page.length === 0) return [];
      const rows = (await table.query().where(sqlIn('id', page)).select(MEMORY_COLUMNS).toArray()) as MemoryRow[];
      const byId = new Map(rows.map((row) => [row.id, row]));
      return page.flatMap((id) => {
        const row = byId.get(id);
        return row ? [this.#access.overlay(rowToMemory(row))] : [];
      });
    });
  }

  count(filter?: MemoryFilter): Promise<number> {
    return this.#read(this.#names.memories, (table) => table.countRows(memoryWhere(filter) ?? undefined));
  }

  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.#read(this.#names.memories, async (table) => {
      const found = new Map<string, Float32Array>();
      if (ids.length === 0 || this.#dimensions === null) return found;
      const rows = (await table
        .query()
        .where(`${sqlIn('id', [...new Set(ids)])} AND vector IS NOT NULL`)
        .select(['id', 'vector'])
        .toArray()) as Array<{ id: string; vector: Iterable<number> }>;
      for (const row of rows) found.set(row.id, Float32Array.from(row.vector));
      return found;
    });
  }

  async recordAccess(ids: readonly string[], at: string): Promise<void> {
    this.#assertOpen();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    // Inside a transaction the update is part of it (and rolls back with it); outside, accesses
    // are gathered and written together (see PendingAccess).
    if (this.#transaction.current()) {
      await this.#write(this.#names.memories, unique, async (table) => {
        await table.update({
          where: sqlIn('id', unique),
          valuesSql: { active_count: 'active_count + 1', last_accessed_at: String(toMs(at)) },
        });
      });
      return;
    }
    this.#access.add(unique, toMs(at));
    if (this.#access.size >= ACCESS_FLUSH_SIZE) await this.#flushAccess();
    else {
      this.#accessTimer ??= this.#calls.outside(() =>
        setTimeout(() => void this.#flushAccess().catch(() => undefined), ACCESS_FLUSH_MS),
      );
    }
  }

  /**
   * Write the gathered accesses in one commit: read the rows, add, merge them back whole.
   * LanceDB's SQL has no CASE for a per-row increment; a read and a merge inside one retried
   * step lose nothing to another process's increments, as the merge conflicts with theirs and
   * is redone on fresh counts. Whole rows, not the two columns: a merge of a few columns
   * rewrites them for every fragment it touches, and LanceDB then drops those fragments from
   * the B-tree on `id` (one merge of 10 rows left 1,581 of 100,000 rows indexed), so every
   * later lookup by id scanned the table (getMemories of 20 ids: 100 ms instead of 13 ms).
   */
  async #flushAccess(): Promise<void> {
    if (this.#accessTimer) clearTimeout(this.#accessTimer);
    this.#accessTimer = undefined;
    const taken = this.#access.take();
    if (!taken) return;
    const ids = [...taken.entries.keys()];
    try {
      // No ids: what maintenance makes of these writes is counted apart (noteAccessWrite).
      await this.#write(this.#names.memories, [], async (table) => {
        const rows = ((await table.query().where(sqlIn('id', ids)).toArray()) as MemoryRow[]).map((row) => {
          const plain = plainRow(row);
          const entry = taken.entries.get(plain.id)!;
          plain.active_count += entry.count;
          plain.last_accessed_at = Math.max(plain.last_accessed_at ?? entry.at, entry.at);
          return plain;
        });
        if (rows.length === 0) return;
        const data = await this.#arrowRows(table, rows);
        // Access counts are nothing the search index holds: the version moves, the index stays.
        const { version } = await table.mergeInsert('id').whenMatchedUpdateAll().execute(data);
        this.#searchIndex?.applyOwnWrite(version, {});
      });
      this.#maintenance.noteAccessWrite(this.#names.memories);
    } catch (error) {
      taken.restore();
      this.#settings.logger.log('warn', `lancedb: access counts not written yet: ${messageOf(error).slice(0, 300)}`);
    }
  }

  // ---- search ----

  searchLexical(query: LexicalSearchQuery): Promise<SearchHit[]> {
    return this.#read(this.#names.memories, async (table) => {
      const terms = [...new Set(analyzeTerms(query.text))];
      const limit = Math.max(0, Math.floor(query.limit));
      if (terms.length === 0 || limit === 0) return [];
      if (this.#settings.search === 'memoir') {
        const index = await this.#memoirIndex();
        if (!index) return [];
        const hits = await index.searchLexical(table, terms, query.filter, limit);
        this.#addresses.note(index.addressesOf(hits));
        this.#snapshotLater(false);
        return hits;
      }
      const { MatchQuery, Operator } = this.#libraries!.lancedb;
      const where = memoryWhere(query.filter);
      return withTies(limit, async (fetch) => {
        let search = table
          .query()
          .fullTextSearch(new MatchQuery(terms.join(' '), 'lexical_terms', { operator: Operator.Or }))
          .select(['id', '_score'])
          .withRowId()
          .limit(fetch);
        if (where) search = search.where(where);
        const rows = (await search.toArray()) as Array<AddressedRow & { _score: number }>;
        this.#addresses.note(rows);
        return rows.map((row) => ({ id: row.id, score: row._score }));
      });
    });
  }

  searchVector(query: VectorSearchQuery): Promise<SearchHit[]> {
    return this.#read(this.#names.memories, async (table) => {
      const vector = query.vector;
      if (!(vector instanceof Float32Array)) {
        throw storeError('searchVector: expected the query vector as a Float32Array');
      }
      const dimensions = this.#dimensions;
      if (dimensions !== null && vector.length !== dimensions) {
        throw storeError(`searchVector: expected a query vector of ${dimensions} dimensions, got ${vector.length}`, {
          suggestion: 'Embed the query with the embedder the store was opened with.',
        });
      }
      const limit = Math.max(0, Math.floor(query.limit));
      if (limit === 0 || dimensions === null) return [];
      if (this.#settings.search === 'memoir') {
        const index = await this.#memoirIndex();
        if (!index) return [];
        const hits = await index.searchVector(table, vector, query.filter, limit);
        this.#addresses.note(index.addressesOf(hits));
        this.#snapshotLater(false);
        return hits;
      }
      // No `vector IS NOT NULL` here: LanceDB's vector search skips null vectors itself, and
      // the condition would make the prefilter read every vector (5× the query time at 50k).
      const where = memoryWhere(query.filter);
      const indexed = await this.#vectorIndexed(table);
      const exact = !indexed || (await this.#fewEnoughForExact(table, query.filter, where));
      const search = (fetch: number) => this.#nearest(table, vector, where, fetch, exact);
      const hits = await withTies(limit, search);
      if (exact || hits.length >= limit) return hits;
      // The index came back short of a filter's rows: exact search never does.
      return withTies(limit, (fetch) => this.#nearest(table, vector, where, fetch, true));
    });
  }

  /**
   * The in-process index for the current embedder's dimensions (a new one when they changed);
   * null before the store has a vector column. The kernel is usearch's when it loads.
   */
  async #memoirIndex(): Promise<LanceSearchIndex | null> {
    const dimensions = this.#dimensions;
    if (dimensions === null) return null;
    if (this.#searchIndex?.dimensions === dimensions) return this.#searchIndex;
    const kernel = await loadVectorKernel(this.#settings.vectorKernel, (reason) =>
      this.#settings.logger.log('debug', `lancedb: usearch not loaded, vector search runs in JavaScript: ${reason}`),
    );
    if (this.#searchIndex?.dimensions !== dimensions) {
      const name = snapshotTableName(this.#settings.tableName);
      this.#searchIndex = new LanceSearchIndex(kernel, dimensions, {
        read: async () => readIndexSnapshot(this.#connection ?? (await this.#connect()), name),
        embedder: () => this.#recordedEmbedderId(),
      });
    }
    return this.#searchIndex;
  }

  async #recordedEmbedderId(): Promise<string | null> {
    return (await this.#readMeta(await this.#table(this.#names.meta), 'embedder_id')) ?? null;
  }

  /**
   * Write a snapshot of memoir's index beside the table when one is due (see
   * {@link LanceSearchIndex.snapshotDue}), a moment later and in the background: never on the
   * path of the write or search that made it due. A failure costs only the next process's
   * head start.
   */
  #snapshotLater(afterMaintenance: boolean): void {
    const index = this.#searchIndex;
    if (index?.floatsPending) this.#fillFloatsLater(index);
    if (!index || this.#closing || this.#snapshotting) return;
    if (!index.snapshotDue(this.#settings.indexSnapshotMinMemories, afterMaintenance)) return;
    if (this.#snapshotPending) {
      // One write covers the burst; a maintenance round meanwhile lowers the bar it checks.
      this.#snapshotPending.afterMaintenance ||= afterMaintenance;
      return;
    }
    this.#snapshotPending = { index, afterMaintenance };
    this.#snapshotTimer = this.#calls.outside(() =>
      setTimeout(() => {
        this.#snapshotTimer = undefined;
        const pending = this.#snapshotPending;
        if (pending && !this.#closing) this.#snapshotNow(pending.index, pending.afterMaintenance);
      }, SNAPSHOT_DELAY_MS),
    );
    this.#snapshotTimer.unref();
  }

  /**
   * An index loaded from a snapshot reads each search's candidates' vectors from the table;
   * a moment after the first search, every vector is read in the background once, which a
   * closing store stops.
   */
  #fillFloatsLater(index: LanceSearchIndex): void {
    if (this.#fillingFloats || this.#closing) return;
    const timer = this.#calls.outside(() =>
      setTimeout(() => {
        if (this.#closing || this.#searchIndex !== index) {
          this.#fillingFloats = undefined;
          return;
        }
        this.#fillingFloats = this.#read(this.#names.memories, (table) => index.fillFloats(table, () => this.#closing))
          .catch((error: unknown) => {
            this.#settings.logger.log('debug', `lancedb: vectors not read ahead: ${messageOf(error).slice(0, 300)}`);
          })
          .finally(() => {
            this.#fillingFloats = undefined;
          });
      }, SNAPSHOT_DELAY_MS),
    );
    timer.unref();
    this.#fillingFloats = timer;
  }

  #snapshotNow(index: LanceSearchIndex, afterMaintenance: boolean): Promise<void> {
    this.#snapshotPending = undefined;
    this.#snapshotting = this.#writeSnapshot(index, afterMaintenance).finally(() => {
      this.#snapshotting = undefined;
    });
    return this.#snapshotting;
  }

  async #writeSnapshot(index: LanceSearchIndex, afterMaintenance: boolean): Promise<void> {
    try {
      await this.#read(this.#names.memories, async (table) => {
        // At the table's current version, so the next process has the least to catch up on.
        await index.sync(table);
        const minMemories = this.#settings.indexSnapshotMinMemories;
        if (this.#searchIndex !== index || !index.snapshotDue(minMemories, afterMaintenance)) return;
        const embedder = await this.#recordedEmbedderId();
        const connection = this.#connection ?? (await this.#connect());
        // Taken and copied in one step: the index changes under any await.
        const snapshot = index.snapshotParts(embedder);
        if (!snapshot) return;
        const name = snapshotTableName(this.#settings.tableName);
        await writeIndexSnapshot(
          this.#libraries!,
          connection,
          name,
          snapshot.parts,
          this.#settings.index.keepVersionsMs,
        );
        index.snapshotWritten(snapshot);
      });
    } catch (error) {
      this.#settings.logger.log(
        'debug',
        `lancedb: the search index snapshot was not written: ${messageOf(error).slice(0, 300)}`,
      );
    }
  }

  /** What memoir's in-process index holds (null with `search: 'native'` or before the first search). */
  searchIndexStats(): LanceSearchIndexStats | null {
    return this.#searchIndex?.stats() ?? null;
  }

  // Both answers change only as the table grows by many rows or an index is built, so they are
  // kept for a while rather than asked of LanceDB before every search.
  async #vectorIndexed(table: LanceTable): Promise<boolean> {
    const now = Date.now();
    if (this.#indexedCache && this.#indexedCache.until > now) return this.#indexedCache.indexed;
    const indexed = (await vectorIndexName(table)) !== null;
    this.#indexedCache = { indexed, until: now + CACHE_MS };
    return indexed;
  }

  async #fewEnoughForExact(table: LanceTable, filter: MemoryFilter | undefined, where: string | null) {
    const threshold = this.#settings.index.exactSearchMaxRows;
    if (threshold === 0 || !filter || !where) return false;
    // Counted without the time conditions: recall's `validAt` is the current millisecond, so a
    // key with it was never found again and every search paid for a count. Fewer conditions
    // count more rows, so the answer stays on the safe side (an index search, never a short one).
    const { validAt: _at, since: _since, until: _until, ...timeless } = filter;
    const key = memoryWhere(timeless) ?? 'true';
    const now = Date.now();
    const cached = this.#countCache.get(key);
    if (cached && cached.until > now) return cached.count <= threshold;
    const count = await table.countRows(key);
    if (this.#countCache.size >= 1000) this.#countCache.clear();
    this.#countCache.set(key, { count, until: now + CACHE_MS });
    return count <= threshold;
  }

  async #nearest(
    table: LanceTable,
    vector: Float32Array,
    where: string | null,
    fetch: number,
    exact: boolean,
  ): Promise<SearchHit[]> {
    const index = this.#settings.index;
    let search = table.vectorSearch(vector).distanceType('cosine').select(['id', '_distance']).withRowId().limit(fetch);
    if (where) search = search.where(where);
    if (exact) search = search.bypassVectorIndex();
    else {
      search = search.maximumNprobes(0).minimumNprobes(index.nprobes).refineFactor(index.refineFactor);
      // HNSW refuses an `ef` below the candidates it must return (limit × refine factor).
      if (index.vector === 'ivf-hnsw-sq' || index.vector === 'ivf-hnsw-pq')
        search = search.ef(Math.max(index.ef, fetch * index.refineFactor));
    }
    const rows = (await search.toArray()) as Array<AddressedRow & { _distance: number }>;
    this.#addresses.note(rows);
    return rows.map((row) => ({ id: row.id, score: 1 - row._distance }));
  }

  // ---- staged bulk changes (see lancedb-staging.ts) ----

  #stagingHost(): StagingHost {
    return {
      names: this.#names,
      local: isLocalUri(this.#settings.uri),
      connection: async () => this.#connection ?? (await this.#connect()),
      table: (name) => this.#table(name),
      meta: () => this.#table(this.#names.meta),
      memoryRows: (records) => this.#memoryRows(records),
      arrowRows: (live, rows) => this.#arrowRows(live, rows),
      write: (operation) => this.#wrap(() => this.#retrying(operation)),
      exclusive: (operation) => this.#exclusive(operation),
      written: (table, ids) => this.#putBack(table, ids),
    };
  }

  /**
   * Start a bulk change written to staging tables and switched in by one commit of the meta
   * table; a process killed before that commit leaves the live tables untouched, one killed
   * after it leaves a plan the next open finishes (see lancedb-staging.ts).
   */
  async stageChange(options: StageChangeOptions = {}): Promise<StagedChange> {
    this.#assertOpen();
    return this.#calls.run(async () => {
      await this.#connect();
      // Accesses gathered before the change are written before it, as for a transaction.
      await this.#flushAccess();
      return new LanceStagedChange(this.#stagingHost(), options);
    });
  }

  // ---- transactions, stats, maintenance, close ----

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    this.#transaction.refuseNested();
    this.#assertOpen();
    return this.#calls.run(() => this.#transactionNow(work));
  }

  async #transactionNow<T>(work: () => Promise<T>): Promise<T> {
    await this.#connect();
    await this.#recoverDue();
    // Accesses gathered before it are written before it, so a rollback cannot undo them.
    await this.#flushAccess();
    const release = await this.#mutex.acquire();
    try {
      this.#assertOpen();
      const transaction = this.#intents.begin();
      let result: T;
      try {
        result = await this.#transaction.run(transaction, work);
        await this.#wrap(() => this.#intents.commit(transaction));
      } catch (error) {
        // Undone now; if the undo fails too, the log stays and the next recovery undoes it.
        await this.#intents.abort(transaction).catch((undoError: unknown) => {
          this.#settings.logger.log(
            'warn',
            `lancedb: a failed transaction is undone at the next recovery: ${messageOf(undoError).slice(0, 300)}`,
          );
        });
        throw error;
      }
      return result;
    } finally {
      release();
    }
  }

  stats(): Promise<StoreStats> {
    return this.#read(this.#names.memories, async (memories) => {
      const counts: Record<string, number> = { memories: await memories.countRows() };
      let bytes = (await memories.stats()).totalBytes;
      for (const kind of RECORD_KINDS) {
        const table = await this.#table(this.#names[kind]);
        counts[kind] = await table.countRows();
        bytes += (await table.stats()).totalBytes;
      }
      return {
        memories: counts.memories!,
        opinions: counts.opinions!,
        procedures: counts.procedures!,
        sessions: counts.sessions!,
        entities: counts.entities!,
        bytes,
      };
    });
  }

  /**
   * Open every table and read its counts and indexes, reporting what fails instead of
   * rejecting; changes nothing.
   */
  check(): Promise<StoreCheck> {
    return this.#calls.run(() => this.#checkNow());
  }

  async #checkNow(): Promise<StoreCheck> {
    const problems: string[] = [];
    const details: Record<string, string | number | boolean | null> = { uri: this.#settings.uri };
    try {
      await this.#connect();
      const meta = await this.#table(this.#names.meta);
      details.schemaVersion = Number((await this.#readMeta(meta, 'schema_version')) ?? 0);
      for (const name of [this.#names.memories, ...RECORD_KINDS.map((kind) => this.#names[kind])]) {
        try {
          const table = await this.#table(name);
          details[name] = await table.countRows();
          await table.query().limit(1).toArray();
        } catch (error) {
          problems.push(`table ${name} cannot be read: ${messageOf(error)}`);
        }
      }
      const memories = await this.#table(this.#names.memories);
      details.indexes = (await memories.listIndices()).map((index) => `${index.name} (${index.indexType})`).join(', ');
    } catch (error) {
      problems.push(messageOf(error));
    }
    return {
      ok: problems.length === 0,
      problems,
      ...(problems.length > 0 ? { suggestion: 'Restore the newest backup with `memoir restore`.' } : {}),
      details,
    };
  }

  /**
   * Bring every index up to date now: compact, fold new rows into the full-text and scalar
   * indexes, and build the vector index when the table is past `index.vectorIndexMinRows`
   * (or whatever its size, with `vectorIndex: true`). Waits for background work first.
   */
  async optimize(options: { vectorIndex?: boolean } = {}): Promise<void> {
    // A round takes the write lock on object storage, which the transaction holds.
    if (this.#transaction.current()) {
      throw storeError('optimize() was called inside a running transaction', {
        suggestion: 'Call optimize() after the transaction has finished.',
      });
    }
    this.#assertOpen();
    return this.#calls.run(async () => {
      await this.#connect();
      await this.#maintenance.drain();
      await this.#wrap(() => this.#maintenance.run(options.vectorIndex === true));
      this.#indexedCache = undefined;
    });
  }

  close(): Promise<void> {
    this.#closePromise ??= this.#shutdown();
    return this.#closePromise;
  }

  async #shutdown(): Promise<void> {
    if (this.#connection) await this.#flushAccess();
    if (this.#snapshotTimer) clearTimeout(this.#snapshotTimer);
    this.#snapshotTimer = undefined;
    // A snapshot that was due is written now rather than dropped: a short-lived process (one
    // `memoir` command) that built the index from rows leaves the next one its head start.
    const pending = this.#snapshotPending;
    if (pending && !this.#transaction.current() && !this.#calls.inside) {
      await this.#snapshotNow(pending.index, pending.afterMaintenance);
    }
    this.#closing = true;
    if (this.#fillingFloats && !(this.#fillingFloats instanceof Promise)) clearTimeout(this.#fillingFloats);
    // Every call started before close() finishes first — a queued write, a running transaction,
    // a read between two LanceDB calls; from inside one that would deadlock.
    if (!this.#transaction.current() && !this.#calls.inside) {
      await this.#calls.settled();
      const release = await this.#mutex.acquire();
      release();
    }
    if (this.#connecting) await this.#connecting.catch(() => undefined);
    this.#maintenance.stop();
    await this.#maintenance.drain();
    await this.#snapshotting;
    this.#closed = true;
    this.#intents.close();
    for (const opening of this.#opening.values()) await opening.catch(() => undefined);
    for (const table of this.#tables.values()) table.close();
    this.#tables.clear();
    this.#connection?.close();
    this.#connection = undefined;
    // Each close above runs once the calls still running on its handle have settled.
    await this.#gate.closed();
  }
}

/** Whether the tables are in a local directory rather than behind a URI scheme (s3://, gs://, db://…). */
function isLocalUri(uri: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The vector column's length, or null when the table has none yet. */
function vectorDimensions(schema: { fields: Array<{ name: string; type: unknown }> }): number | null {
  const field = schema.fields.find((each) => each.name === 'vector');
  const size = (field?.type as { listSize?: number } | undefined)?.listSize;
  return typeof size === 'number' ? size : null;
}

async function hasVectors(table: LanceTable): Promise<boolean> {
  return (await table.query().where('vector IS NOT NULL').select(['id']).limit(1).toArray()).length > 0;
}

/**
 * The best `limit` hits, best first, equal scores by id. Asks `search` for a few more than
 * `limit`, and once for four times as many when the last one fetched ties with the last one
 * kept, so a tie at the cut is broken by id rather than by the index's order. Past that,
 * ties are broken among those fetched: BM25 gives equal scores to many short memories, and
 * fetching them all would cost more than the search itself.
 */
async function withTies(limit: number, search: (fetch: number) => Promise<SearchHit[]>): Promise<SearchHit[]> {
  let fetch = limit + 8;
  for (let round = 0; ; round++) {
    const hits = (await search(fetch)).sort(compareHits);
    const tiedAtCut = hits.length >= fetch && hits[limit - 1]!.score === hits[hits.length - 1]!.score;
    if (!tiedAtCut || round === 1) return hits.slice(0, limit);
    fetch = limit * 4 + 8;
  }
}
