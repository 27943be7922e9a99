import type { Scope } from '../../core/spec/memory.js';
import type { RecordListQuery } from '../../core/spec/store.js';
import { encodeStoredText } from '../../core/text/stored-text.js';
import type { LanceTable } from './lancedb-driver.js';
import { scopeSql, sqlIn } from './lancedb-filter.js';
import { type RecordRow, recordToRow } from './lancedb-rows.js';

/** What a collection needs from the store that owns it. */
export interface LanceCollectionHost {
  /** Check the store is open and resolve to the table. */
  read<R>(table: string, operation: (table: LanceTable) => Promise<R>): Promise<R>;
  /**
   * Run a write on the table under the store's write lock (or inside the running
   * transaction), after noting the prior state of rows `ids` so a rollback can restore them.
   */
  write<R>(table: string, ids: readonly string[], operation: (table: LanceTable) => Promise<R>): Promise<R>;
  /** Insert or replace rows by id. */
  upsertRows(table: LanceTable, rows: readonly object[]): Promise<void>;
}

// A record's id may carry free text (a session record's id holds the session id): the id column
// keeps its escaped form (see recordToRow), so ids are escaped before they are looked up.
const storedIds = (ids: readonly string[]): string[] => [...new Set(ids.map(encodeStoredText))];

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Records of one kind in a table of their own: scope columns to filter on, the record as JSON. */
export class LanceCollection<T extends { id: string; scope: Scope }> {
  constructor(
    private readonly host: LanceCollectionHost,
    private readonly table: string,
  ) {}

  get(ids: readonly string[]): Promise<T[]> {
    return this.host.read(this.table, async (table) => {
      if (ids.length === 0) return [];
      const rows = (await table
        .query()
        .where(sqlIn('id', storedIds(ids)))
        .select(['id', 'data'])
        .toArray()) as RecordRow[];
      const byId = new Map(rows.map((row) => [row.id, row.data]));
      return ids.flatMap((id) => {
        const data = byId.get(encodeStoredText(id));
        return data === undefined ? [] : [JSON.parse(data) as T];
      });
    });
  }

  upsert(records: readonly T[]): Promise<void> {
    // Serialise first, so a record JSON cannot hold fails before anything is written.
    const latest = new Map(records.map((record) => [encodeStoredText(record.id), recordToRow(record)]));
    return this.host.write(this.table, [...latest.keys()], async (table) => {
      if (latest.size > 0) await this.host.upsertRows(table, [...latest.values()]);
    });
  }

  delete(ids: readonly string[]): Promise<number> {
    const unique = storedIds(ids);
    return this.host.write(this.table, unique, async (table) => {
      if (unique.length === 0) return 0;
      const where = sqlIn('id', unique);
      const count = await table.countRows(where);
      if (count > 0) await table.delete(where);
      return count;
    });
  }

  list(options: RecordListQuery = {}): Promise<T[]> {
    return this.host.read(this.table, async (table) => {
      let query = table.query().select(['id', 'data']);
      const where = scopeSql(options.scope);
      if (where) query = query.where(where);
      const rows = ((await query.toArray()) as RecordRow[]).sort((a, b) => compareIds(a.id, b.id));
      const start = Math.max(0, Math.floor(options.offset ?? 0));
      const end = options.limit === undefined ? undefined : start + Math.max(0, Math.floor(options.limit));
      return rows.slice(start, end).map((row) => JSON.parse(row.data) as T);
    });
  }
}
