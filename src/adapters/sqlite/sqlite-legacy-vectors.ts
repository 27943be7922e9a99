/**
 * Files written before schema 6 also kept every vector in `memories_vec`, a sqlite-vec
 * (`vec0`) virtual table, which nothing has read since search moved into the in-process
 * index. This drops it, and its shadow tables, without the sqlite-vec extension.
 *
 * SQLite cannot drop a virtual table whose module is not registered ("no such module:
 * vec0"). The usual way round, `PRAGMA writable_schema` and deleting its `sqlite_master`
 * row, is closed here: better-sqlite3 opens connections in defensive mode, where
 * `writable_schema = ON` is silently ignored, and an edit of `sqlite_master` does not
 * change the schema cookie that other processes watch. Instead a stand-in `vec0` module
 * (better-sqlite3's `table()`, whose destroy callback only frees its own memory) lets an
 * ordinary `DROP TABLE` remove the virtual table; its shadow tables are ordinary tables
 * to a connection without sqlite-vec and drop as such (their `sqlite_sequence` rows with
 * them). Both happen in one immediate transaction: SQLite frees the pages, bumps the
 * schema cookie, and a crash leaves either the old schema or the new one.
 */
import type { Logger } from '../../core/spec/runtime.js';
import type { SqliteDatabase } from './sqlite-driver.js';

const LEGACY_TABLE = 'memories_vec';

/** The shadow tables sqlite-vec 0.1 creates for a vec0 table named `memories_vec`. */
const SHADOW_TABLE = /^memories_vec_(info|chunks|rowids|auxiliary|vector_chunks\d+|metadatachunks\d+|metadatatext\d+)$/;

/**
 * Drop the legacy `memories_vec` table and its shadow tables when the file still holds
 * them; a no-op otherwise. Needs a writable connection; resolves to whether it dropped.
 */
export function dropLegacyVectorTable(db: SqliteDatabase, logger?: Logger): boolean {
  const present = () =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(LEGACY_TABLE) !== undefined;
  if (!present()) return false;
  // Registered for this connection only; it answers no rows, and after the drop nothing uses it.
  db.table('vec0', () => ({ columns: ['embedding'], *rows() {} }));
  const drop = db.transaction(() => {
    if (!present()) return false; // another process dropped it while this one waited for the lock
    const shadows = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]
    ).filter((name) => SHADOW_TABLE.test(name));
    db.exec(`DROP TABLE "${LEGACY_TABLE}"`);
    for (const shadow of shadows) db.exec(`DROP TABLE "${shadow}"`);
    return true;
  }) as unknown as { immediate(): boolean };
  const dropped = drop.immediate();
  if (dropped) logger?.log('debug', `dropped ${LEGACY_TABLE}, the sqlite-vec table unused since schema 6`);
  return dropped;
}
