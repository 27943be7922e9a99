import { StoreError } from '../../core/spec/errors.js';

// The slice of better-sqlite3 this adapter calls, declared here so that nothing outside
// this folder needs its types and the library itself loads only when a store opens.

/** A prepared statement. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): this;
}

/** An open database connection. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): this;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  loadExtension(path: string): this;
  close(): this;
  readonly open: boolean;
  readonly inTransaction: boolean;
}

/** The constructor better-sqlite3 exports. */
export type SqliteDatabaseConstructor = new (
  filename: string,
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

/**
 * Load sqlite-vec into `db`, from `path` when given (a build of your own, for a platform
 * the npm package doesn't cover), else from the sqlite-vec package. Resolves to the reason
 * it could not, or null when it did.
 */
export async function loadVectorExtension(db: SqliteDatabase, path?: string): Promise<string | null> {
  try {
    if (path) db.loadExtension(path);
    else {
      const sqliteVec = (await import('sqlite-vec')) as { load(db: SqliteDatabase): void };
      sqliteVec.load(db);
    }
    db.prepare('SELECT vec_version()').get();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
