import type { SqliteDatabase } from '../sqlite-driver.js';

/**
 * The search index written into the file as named blobs, so that the next process to open
 * a large store reads a few large values instead of rebuilding postings and quantising
 * every vector from every row. It is only a head start: it records the change sequence it
 * reflects, and the rows changed since are read on top as usual.
 */
export type SnapshotParts = Map<string, Uint8Array>;

/** Bytes of a typed array, without copying. */
export const bytesOf = (view: ArrayBufferView): Uint8Array =>
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

/** JSON as bytes. */
export const jsonBytes = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));

/** Bytes back into JSON. */
export const fromJson = <T>(bytes: Uint8Array): T => JSON.parse(Buffer.from(bytes).toString('utf8')) as T;

type ViewConstructor<T> = new (buffer: ArrayBuffer) => T;

/** Bytes into a typed array of their own (copied, so the alignment is right). */
export function viewOf<T>(bytes: Uint8Array, Constructor: ViewConstructor<T>): T {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Constructor(copy.buffer);
}

/** A part that must be present; a snapshot missing one is ignored as a whole. */
export function part(parts: SnapshotParts, name: string): Uint8Array {
  const found = parts.get(name);
  if (!found) throw new Error(`search index snapshot lacks ${name}`);
  return found;
}

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
