import type { SnapshotParts } from '../../../core/store-kit/search-index/snapshot-parts.js';
import type { SqliteDatabase } from '../sqlite-driver.js';

const TABLE = 'search_index_snapshot';

/** The stored snapshot's parts, or null when there is none. */
export function readSnapshot(db: SqliteDatabase): SnapshotParts | null {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE);
  if (!exists) return null;
  const rows = db.prepare(`SELECT name, data FROM ${TABLE}`).raw(true).all() as Array<[string, Uint8Array]>;
  return rows.length === 0 ? null : new Map(rows);
}

/** Replace the stored snapshot (inside the caller's write transaction). */
export function writeSnapshot(db: SqliteDatabase, parts: SnapshotParts): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (name TEXT PRIMARY KEY, data BLOB NOT NULL)`);
  db.exec(`DELETE FROM ${TABLE}`);
  const insert = db.prepare(`INSERT INTO ${TABLE} (name, data) VALUES (?, ?)`);
  for (const [name, data] of parts) insert.run(name, data);
}

/** Drop the stored snapshot (an embedder reset makes it useless). */
export function dropSnapshot(db: SqliteDatabase): void {
  db.exec(`DROP TABLE IF EXISTS ${TABLE}`);
}
