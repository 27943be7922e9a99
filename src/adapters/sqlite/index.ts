/**
 * The SQLite store: one file in WAL mode holds every record, each memory's analysed terms
 * and its float32 vector; search runs on an index held in the process and derived from
 * the file — BM25 postings and an int8 vector matrix (scanned with usearch when it is
 * installed, in JavaScript otherwise, then rescored in float32) — which follows other
 * connections' writes through a change sequence and, for large stores, is snapshotted
 * into the file. No SQLite extension is loaded. better-sqlite3 (and usearch) load when the
 * store first opens, never at import. Also the file check and salvage behind `memoir doctor`.
 *
 * @module memoir/sqlite
 */

import { parseOptions } from '../../core/utils/parse-options.js';
import { createConsoleLogger } from '../../core/utils/runtime-defaults.js';
import { SqliteStore } from './sqlite-store.js';
import { type SqliteStoreOptions, sqliteStoreOptionsSchema } from './sqlite-store-options.js';

export type { SearchIndexStats } from './search-index/search-index.js';
export {
  type CheckSqliteFileOptions,
  checkSqliteFile,
  type SqliteFileCheck,
  type SqliteFileStatus,
  type SqliteTableCounts,
} from './sqlite-check.js';
export { type SalvageReport, salvageSqliteFile } from './sqlite-salvage.js';
export type { SqliteStore, VectorMode } from './sqlite-store.js';
export type { SqliteStoreOptions } from './sqlite-store-options.js';

/**
 * Open (lazily, on first use) a SQLite-backed MemoryStore at `options.path`.
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { createSqliteStore } from 'memoir/sqlite';
 * const memory = createMemory({ store: createSqliteStore({ path: './agent.sqlite' }) });
 * ```
 * @group Adapters
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const parsed = parseOptions(
    sqliteStoreOptionsSchema,
    options,
    'sqlite-store',
    'Pass at least { path: "/path/to/memoir.sqlite" }.',
  );
  return new SqliteStore({
    ...parsed,
    readOnly: parsed.readOnly,
    logger: parsed.logger ?? createConsoleLogger(),
  });
}
