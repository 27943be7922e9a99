/**
 * The SQLite store: one file, WAL mode, FTS5 for lexical search and sqlite-vec for vector
 * search (a scan when the extension can't load). better-sqlite3 and sqlite-vec load when
 * the store first opens, never at import.
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
export { MIGRATIONS, migrate, SCHEMA_VERSION } from './sqlite-schema.js';
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
