import { StoreError } from '../../core/spec/errors.js';
import type { Scope } from '../../core/spec/memory.js';
import type { RecordListQuery } from '../../core/spec/store.js';
import { listRecordsIn } from '../../core/store-kit/memory-query.js';

/** Records an undo step for the running transaction; a no-op outside one. */
export type UndoLog = (step: () => void) => void;

/** What a collection needs from the store that owns it. */
export interface CollectionHost {
  /** Check the store is open, then run a read. */
  read<R>(operation: () => R): Promise<R>;
  /**
   * Check the store is open, wait for the write lock (unless called inside the running
   * transaction), then run a write that reports how to undo each change.
   */
  write<R>(operation: (undo: UndoLog) => R): Promise<R>;
}

/** Records of one kind, keyed by id. */
export type CollectionRecord = { id: string; scope: Scope };

/** Deep copy of a value on its way into the store; a value that can't be copied is refused with a StoreError. */
export function cloneForStorage<T>(value: T, what: string): T {
  try {
    return structuredClone(value);
  } catch (cause) {
    throw new StoreError(`${what}: expected plain data (objects, arrays, strings, numbers, booleans, null)`, {
      component: 'in-memory-store',
      cause,
    });
  }
}

/**
 * The records of one kind other than memory, held in a Map. Records are deep-copied on the way in and
 * on the way out, so callers never share objects with the store.
 */
export class InMemoryCollection<T extends CollectionRecord> {
  private readonly records = new Map<string, T>();

  constructor(private readonly host: CollectionHost) {}

  /** Number of records (synchronous; for the owning store). */
  get size(): number {
    return this.records.size;
  }

  /** Every record with the key it is held under (synchronous, not copied; for the owning store's `check`). */
  entries(): IterableIterator<[string, T]> {
    return this.records.entries();
  }

  /** Drop every record without journaling (for the owning store's `close`). */
  clear(): void {
    this.records.clear();
  }

  get(ids: readonly string[]): Promise<T[]> {
    return this.host.read(() => {
      const found: T[] = [];
      for (const id of ids) {
        const record = this.records.get(id);
        if (record) found.push(structuredClone(record));
      }
      return found;
    });
  }

  upsert(records: readonly T[]): Promise<void> {
    return this.host.write((undo) => {
      // Copy the whole batch before changing anything, so a record that can't be cloned writes nothing.
      const copies = records.map((record, index) => cloneForStorage(record, `records[${index}]`));
      for (const record of copies) {
        const previous = this.records.get(record.id);
        undo(() => {
          if (previous) this.records.set(record.id, previous);
          else this.records.delete(record.id);
        });
        this.records.set(record.id, record);
      }
    });
  }

  delete(ids: readonly string[]): Promise<number> {
    return this.host.write((undo) => {
      let deleted = 0;
      for (const id of ids) {
        const previous = this.records.get(id);
        if (!previous) continue;
        this.records.delete(id);
        undo(() => this.records.set(id, previous));
        deleted += 1;
      }
      return deleted;
    });
  }

  list(query: RecordListQuery = {}): Promise<T[]> {
    return this.host.read(() => listRecordsIn(this.records.values(), query).map((record) => structuredClone(record)));
  }
}
