import type { Scope } from '../../core/spec/memory.js';
import type { RecordListQuery } from '../../core/spec/store.js';
import { encodeStoredText } from '../../core/text/stored-text.js';
import type { SqliteDatabase } from './sqlite-driver.js';
import { scopeCondition } from './sqlite-filter.js';
import { cachedStatement } from './statement-cache.js';

/** How a collection reaches the store's connection, inside or outside a transaction. */
export interface SqliteHost {
  read<T>(operation: (db: SqliteDatabase) => T): Promise<T>;
  write<T>(operation: (db: SqliteDatabase) => T): Promise<T>;
}

type Scoped = { id: string; scope: Scope };

// A record's id may carry free text (a session record's id holds the session id), so the id
// column keeps its escaped form; the JSON document keeps the record exactly.
const idsParam = (ids: readonly string[]): string => JSON.stringify(ids.map(encodeStoredText));

/** Records of one kind other than memory, stored as JSON documents, with the scope in columns for filtering. */
export class SqliteCollection<T extends Scoped> {
  readonly #host: SqliteHost;
  readonly #table: string;

  constructor(host: SqliteHost, table: 'opinions' | 'procedures' | 'sessions' | 'entities') {
    this.#host = host;
    this.#table = table;
  }

  get(ids: readonly string[]): Promise<T[]> {
    return this.#host.read((db) => {
      const rows = cachedStatement(
        db,
        `SELECT id, data FROM ${this.#table} WHERE id IN (SELECT value FROM json_each(?))`,
      ).all(idsParam(ids)) as Array<{ id: string; data: string }>;
      const byId = new Map(rows.map((row) => [row.id, row.data]));
      return ids.flatMap((id) => {
        const data = byId.get(encodeStoredText(id));
        return data === undefined ? [] : [JSON.parse(data) as T];
      });
    });
  }

  upsert(records: readonly T[]): Promise<void> {
    return this.#host.write((db) => {
      const statement = db.prepare(
        `INSERT INTO ${this.#table} (id, agent_id, user_id, namespace, data) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET agent_id = excluded.agent_id, user_id = excluded.user_id,
         namespace = excluded.namespace, data = excluded.data`,
      );
      const rows = records.map((record) => [
        encodeStoredText(record.id),
        record.scope.agentId ?? null,
        record.scope.userId ?? null,
        record.scope.namespace ?? null,
        JSON.stringify(record),
      ]);
      for (const row of rows) statement.run(...row);
    });
  }

  delete(ids: readonly string[]): Promise<number> {
    return this.#host.write(
      (db) =>
        db.prepare(`DELETE FROM ${this.#table} WHERE id IN (SELECT value FROM json_each(?))`).run(idsParam(ids))
          .changes,
    );
  }

  list(options: RecordListQuery = {}): Promise<T[]> {
    return this.#host.read((db) => {
      const condition = scopeCondition(options.scope, 'r');
      const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      const rows = db
        .prepare(`SELECT data FROM ${this.#table} r WHERE ${condition.sql} ORDER BY r.id ASC LIMIT ? OFFSET ?`)
        .pluck()
        .all(...condition.params, limit, offset) as string[];
      return rows.map((data) => JSON.parse(data) as T);
    });
  }
}
