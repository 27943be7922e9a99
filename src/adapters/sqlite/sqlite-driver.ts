import { StoreError } from '../../core/spec/errors.js';
import { sqliteCode } from './sqlite-errors.js';
import { PageFile } from './sqlite-pages.js';

// The slice of better-sqlite3 this adapter calls, declared here so that nothing outside
// this folder needs its types and the library itself loads only when a store opens.

/** A prepared statement. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): this;
  raw(toggle?: boolean): this;
}

/** An open database connection. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): this;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  /**
   * Register a virtual table module on this connection; with a factory, `CREATE VIRTUAL
   * TABLE … USING name(…)` (and `DROP TABLE` of such a table) calls it with the arguments.
   */
  table(name: string, factory: (...args: string[]) => { columns: string[]; rows: () => Generator<unknown> }): this;
  close(): this;
  readonly open: boolean;
  readonly inTransaction: boolean;
}

/** The constructor better-sqlite3 exports: a file name, or a serialized database to open in memory. */
export type SqliteDatabaseConstructor = new (
  filename: string | Buffer,
  options?: { timeout?: number; readonly?: boolean; fileMustExist?: boolean },
) => SqliteDatabase;

let driver: Promise<SqliteDatabaseConstructor> | undefined;

/** better-sqlite3, imported on first use; a missing install is a StoreError naming the package. */
export function loadSqliteDriver(): Promise<SqliteDatabaseConstructor> {
  driver ??= import('better-sqlite3').then(
    (module) => (module.default ?? module) as unknown as SqliteDatabaseConstructor,
    (error: unknown) => {
      driver = undefined;
      throw new StoreError('cannot load better-sqlite3', {
        component: 'sqlite-store',
        cause: error,
        suggestion: 'Install it with `npm install better-sqlite3` (it builds a native module; Node 20.19+).',
      });
    },
  );
  return driver;
}

/** A connection and how it was made. */
export interface OpenedDatabase {
  /** The connection. */
  db: SqliteDatabase;
  /** True when the file could only be read into memory (a read-only WAL database without its `-shm`). */
  inMemoryCopy: boolean;
}

/**
 * Open `path`. Read-only connections never create or change the file; when SQLite cannot
 * open a WAL database read-only (its directory is not writable and its `-shm` file is
 * missing), the file and its committed WAL frames are read into memory instead.
 */
export function openDatabase(
  Database: SqliteDatabaseConstructor,
  path: string,
  options: { readOnly: boolean; timeout: number },
): OpenedDatabase {
  if (!options.readOnly) return { db: new Database(path, { timeout: options.timeout }), inMemoryCopy: false };
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: options.timeout });
    // SQLite opens lazily: the first read is where a missing -shm shows up.
    db.pragma('user_version', { simple: true });
    return { db, inMemoryCopy: false };
  } catch (error) {
    db?.close();
    if (sqliteCode(error) !== 'SQLITE_CANTOPEN') throw error;
  }
  const pages = PageFile.open(path);
  try {
    return { db: new Database(pages.image(), { readonly: true }), inMemoryCopy: true };
  } finally {
    pages.close();
  }
}
