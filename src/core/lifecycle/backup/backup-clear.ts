/**
 * Emptying a store, or one scope of it, with the session tallies of other scopes kept
 * in step. Runs inside the caller's transaction.
 *
 * @module
 */
import { scopeMatches } from '../../search/memory-filter.js';
import type { Scope } from '../../spec/memory.js';
import type { Session } from '../../spec/records.js';
import type { MemoryStore, RecordCollection } from '../../spec/store.js';
import { type BackupCounts, emptyCounts } from './backup-manifest.js';

const PAGE = 1000;
const RECORD_KEYS = ['opinions', 'procedures', 'sessions', 'entities'] as const;

type ScopedRecord = { id: string; scope: Scope };

/** Every id a paged listing returns, reading one page at a time. */
async function allIds<T>(list: (offset: number) => Promise<T[]>, idOf: (item: T) => string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await list(offset);
    for (const item of page) ids.push(idOf(item));
    if (page.length < PAGE) return ids;
  }
}

async function deleteInChunks(ids: readonly string[], remove: (chunk: string[]) => Promise<number>): Promise<number> {
  let deleted = 0;
  for (let at = 0; at < ids.length; at += PAGE) deleted += await remove(ids.slice(at, at + PAGE));
  return deleted;
}

/**
 * Add `sign × count` to the `memoryCount` of each session in `counts` that exists and
 * lies outside `scope`: a memory of this scope may sit in a session record of another
 * (a session id two scopes share), and that record must keep counting truly.
 */
export async function adjustForeignSessions(
  store: MemoryStore,
  counts: ReadonlyMap<string, number>,
  sign: 1 | -1,
  scope: Scope,
): Promise<void> {
  if (counts.size === 0) return;
  const foreign = (await store.sessions.get([...counts.keys()])).filter(
    (session) => !scopeMatches(session.scope, scope),
  );
  if (foreign.length === 0) return;
  const updated: Session[] = foreign.map((session) => ({
    ...session,
    memoryCount: Math.max(0, session.memoryCount + sign * (counts.get(session.id) ?? 0)),
  }));
  await store.sessions.upsert(updated);
}

/**
 * Delete every memory and record of `scope` (every one, without a scope), reading ids a
 * page at a time rather than whole memories. With a scope, session records of other
 * scopes that counted the deleted memories are decremented; entity records need nothing,
 * since an entity's id carries the exact scope of the memories it counts.
 */
export async function deleteScope(store: MemoryStore, scope: Scope | undefined): Promise<BackupCounts> {
  const counts = emptyCounts();
  const sessions = new Map<string, number>();
  const ids = await allIds(
    (offset) =>
      store.listMemories({
        filter: scope ? { scope } : undefined,
        orderBy: 'createdAt',
        direction: 'asc',
        limit: PAGE,
        offset,
      }),
    (memory) => {
      if (scope && memory.sessionId !== null) sessions.set(memory.sessionId, (sessions.get(memory.sessionId) ?? 0) + 1);
      return memory.id;
    },
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
  if (scope) await adjustForeignSessions(store, sessions, -1, scope);
  return counts;
}
