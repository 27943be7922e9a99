/**
 * Bulk changes (restore, import, clear), written as all-or-nothing as the store allows — and
 * refused where that would be nothing. A store that stages changes (it has `stageChange`,
 * e.g. LanceDB, whose transactions are undone only while the process lives) gets the change
 * staged apart and switched in by one crash-safe commit. Any other store runs it in one
 * `transaction()`: with `capabilities.transactions` `atomic` (SQLite, in-memory) it is
 * all-or-nothing across a crash as well; with `per-table` it is undone when it fails but a
 * process killed part-way can leave part of it; with `none` it is refused with a StoreError
 * naming the capability, since a restore or clear that failed part-way would leave the old
 * data gone and the new half written.
 *
 * @module
 */
import type { Scope } from '../spec/memory.js';
import type { MemoryRecord, MemoryStore, RecordCollectionKey, StagedRemovals } from '../spec/store.js';
import { type CoreStore, coreStore, type RecordCollection } from '../store/store-facade.js';
import { assertBulkChangeSafe, stagesChanges } from '../utils/store-capabilities.js';
import { deleteScope } from './backup-clear.js';

/** Where the work of a bulk change writes: staged or inside the transaction. */
export interface BulkWriter {
  /** Insert or replace memories by id. */
  upsertMemories(records: readonly MemoryRecord[]): Promise<void>;
  /** Insert or replace records of one collection by id. */
  upsertRecords(key: RecordCollectionKey, records: readonly { id: string; scope: Scope }[]): Promise<void>;
}

/** Options of {@link changeAtomically}. */
export interface AtomicChangeOptions {
  /** Remove this scope's memories and records (everything, without a scope) before the writes. */
  replace?: {
    /** The scope whose memories and records go; absent: every scope. */
    scope?: Scope;
  };
}

/** What {@link changeAtomically} resolves to. */
export interface AtomicChangeResult<T> {
  /** What the work resolved to. */
  result: T;
  /** How many memories and records of each kind `replace` removed (all zero without it). */
  removed: StagedRemovals;
}

/**
 * Run `work`, whose writes go through the writer it is given, as one all-or-nothing change:
 * if `work` rejects nothing it wrote is applied, and a process killed part-way leaves the
 * store with the data before or the data after, never a mix (on a `per-table` store without
 * staged changes, only the first holds). Resolves to what `work` resolved to and what
 * `replace` removed. Rejects with a StoreError before writing anything on a store that can
 * neither stage the change nor undo a transaction (`capabilities.transactions` `none`).
 *
 * Reads `work` makes through the store see the data as it was before the change on a staging
 * store (the removal and the writes are applied at commit), and the change so far on the
 * others, so `work` must read only what holds either way (e.g. whether an id belongs to
 * another scope).
 */
export async function changeAtomically<T>(
  given: MemoryStore | CoreStore,
  options: AtomicChangeOptions,
  work: (writer: BulkWriter) => Promise<T>,
): Promise<AtomicChangeResult<T>> {
  const store = coreStore(given);
  if (stagesChanges(store.port)) {
    const staged = await store.stageChange!(options.replace ? { replace: options.replace } : {});
    try {
      const result = await work(staged);
      const removed = await staged.commit();
      return { result, removed };
    } finally {
      await staged.abort();
    }
  }
  assertBulkChangeSafe(store.port, options.replace ? 'a restore or clear' : 'an import');
  return store.transaction(async () => {
    const removed = options.replace
      ? await deleteScope(store, options.replace.scope)
      : { memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 };
    const writer: BulkWriter = {
      upsertMemories: (records) => store.upsertMemories(records),
      upsertRecords: (key, records) => (store[key] as RecordCollection<{ id: string; scope: Scope }>).upsert(records),
    };
    const result = await work(writer);
    return { result, removed };
  });
}
