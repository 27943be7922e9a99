/**
 * Bulk changes (restore, import, clear) written all-or-nothing on every store. A store that
 * stages changes (`capabilities.stagedChanges`, e.g. LanceDB, whose transactions are undone
 * only while the process lives) gets the change staged apart and switched in by one
 * crash-safe commit; any other store runs it in one `transaction()`, which SQLite's journal
 * keeps all-or-nothing across a crash as well.
 *
 * @module
 */
import type { Scope } from '../../spec/memory.js';
import type {
  MemoryRecord,
  MemoryStore,
  RecordCollection,
  RecordCollectionKey,
  StagedRemovals,
} from '../../spec/store.js';
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
 * store with the data before or the data after, never a mix. Resolves to what `work`
 * resolved to and what `replace` removed.
 *
 * Reads `work` makes through the store see the data as it was before the change on a staging
 * store (the removal and the writes are applied at commit), and the change so far on the
 * others, so `work` must read only what holds either way (e.g. whether an id belongs to
 * another scope).
 */
export async function changeAtomically<T>(
  store: MemoryStore,
  options: AtomicChangeOptions,
  work: (writer: BulkWriter) => Promise<T>,
): Promise<AtomicChangeResult<T>> {
  if (store.capabilities.stagedChanges === true && typeof store.stageChange === 'function') {
    const staged = await store.stageChange(options.replace ? { replace: options.replace } : {});
    try {
      const result = await work(staged);
      const removed = await staged.commit();
      return { result, removed };
    } finally {
      await staged.abort();
    }
  }
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
