import type { SqliteDatabase, SqliteStatement } from './sqlite-driver.js';

/** How a cached statement hands back its rows: objects, the first column alone, or arrays. */
export type StatementMode = 'rows' | 'pluck' | 'raw';

// Compiling a statement costs more than running most of the ones a recall makes (a tenth of a
// small store's recall went to it), so the fixed statements on hot paths are compiled once per
// connection. Keyed by mode as well as text: pluck and raw are settings of the statement itself.
const cache = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>();

/**
 * The statement for `sql` on `db`, compiled on first use and kept for the connection's life.
 * Only for fixed SQL text run with `get`, `all` or `run` (an open `iterate` keeps its statement
 * busy, so iterating callers prepare their own).
 */
export function cachedStatement(db: SqliteDatabase, sql: string, mode: StatementMode = 'rows'): SqliteStatement {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  const key = `${mode}:${sql}`;
  let statement = statements.get(key);
  if (!statement) {
    statement = db.prepare(sql);
    if (mode === 'pluck') statement.pluck(true);
    else if (mode === 'raw') statement.raw(true);
    statements.set(key, statement);
  }
  return statement;
}
