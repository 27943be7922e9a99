/**
 * Emptying a store, or one scope of it. Runs inside the caller's transaction.
 *
 * @module
 */
import type { Scope } from '../spec/memory.js';
import type { CoreStore, RecordCollection } from '../store/store-facade.js';
import { pagesOf } from '../utils/pages.js';
import { type BackupCounts, emptyCounts } from './backup-manifest.js';

const PAGE = 1000;
const RECORD_KEYS = ['opinions', 'procedures', 'sessions', 'entities'] as const;

type ScopedRecord = { id: string; scope: Scope };

/** Every id a paged listing returns, reading one page at a time. */
async function allIds<T>(list: (offset: number) => Promise<T[]>, idOf: (item: T) => string): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of pagesOf((offset) => list(offset), PAGE)) for (const item of page) ids.push(idOf(item));
  return ids;
}

async function deleteInChunks(ids: readonly string[], remove: (chunk: string[]) => Promise<number>): Promise<number> {
  let deleted = 0;
  for (let at = 0; at < ids.length; at += PAGE) deleted += await remove(ids.slice(at, at + PAGE));
  return deleted;
}

/**
 * Delete every memory and record of `scope` (every one, without a scope), listing a page
 * at a time. No tally of another scope changes: entity and session records are keyed by
 * the exact scope of the memories they count, so every record that counted a deleted
 * memory lies in `scope` and goes with it.
 */
export async function deleteScope(store: CoreStore, scope: Scope | undefined): Promise<BackupCounts> {
  const counts = emptyCounts();
  const ids = await allIds(
    (offset) =>
      store.listMemories({
        filter: scope ? { scope } : undefined,
        orderBy: 'createdAt',
        direction: 'asc',
        limit: PAGE,
        offset,
      }),
    (memory) => memory.id,
  );
  counts.memories = await deleteInChunks(ids, (chunk) => store.deleteMemories(chunk));
  for (const key of RECORD_KEYS) {
    const collection = store[key] as RecordCollection<ScopedRecord>;
    const recordIds = await allIds(
      (offset) => collection.list({ scope, limit: PAGE, offset }),
      (record) => record.id,
    );
    counts[key] = await deleteInChunks(recordIds, (chunk) => collection.delete(chunk));
  }
  return counts;
}
