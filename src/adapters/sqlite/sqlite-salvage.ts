/**
 * `salvageSqliteFile`: copy every row that still reads from a damaged store into a new
 * file, the way `sqlite3 .recover` does — page by page, cell by cell, with plain file
 * reads, so one bad page costs only its own rows. The damaged file is only read.
 */
import { existsSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { StoreError } from '../../core/spec/errors.js';
import type { Memory } from '../../core/spec/memory.js';
import { parseInput } from '../../core/utils/validate.js';
import { isTableLeaf, leafRows, type RawRow, treeLeaves } from './sqlite-btree.js';
import type { SqliteTableCounts } from './sqlite-check.js';
import { loadSqliteDriver, type SqliteDatabase, type SqliteDatabaseConstructor } from './sqlite-driver.js';
import { PageFile } from './sqlite-pages.js';
import { MEMORY_COLUMNS, memoryToRow } from './sqlite-rows.js';
import {
  embeddingFromRow,
  memoryFromRow,
  metaFromRow,
  RECORD_TABLES,
  type RecordRow,
  type RecordTable,
  recordFromRow,
  recordTableOf,
} from './sqlite-salvage-rows.js';
import { entityKey, migrate } from './sqlite-schema.js';

const COMPONENT = 'sqlite-salvage';

/**
 * What {@link salvageSqliteFile} recovered.
 *
 * @group Checking and repair
 */
export interface SalvageReport {
  /** The damaged file that was read. */
  source: string;
  /** The new file written. */
  target: string;
  /** Rows written to the new file, per table (memories without an embedding are embedded again by `memoir reindex`). */
  recovered: SqliteTableCounts;
  /** Rows found that could not be read back (a bad cell, or values that make no memory or record). */
  unreadableRows: number;
  /** Pages a table pointed to that were missing or not b-tree pages: the rows under them are lost unless found as orphans. */
  lostPages: number;
  /**
   * Table pages found outside every table (e.g. below an overwritten page); their rows were
   * kept when they had the shape of a memory, record or embedding.
   */
  orphanPages: number;
  /** Whether the schema (page 1) could be read; without it every row was recognised by shape. */
  schemaFound: boolean;
  /** Pages taken from the write-ahead log (committed but not yet folded into the file). */
  walPages: number;
}

/**
 * The leaf pages of the tables salvage reads; rows are decoded page by page as they are
 * written, so memory holds one page's rows at a time. Everything else (indexes, the
 * full-text and vector indexes) is rebuilt from the rows.
 */
interface Found {
  pages: PageFile;
  memories: number[];
  memoryColumns: readonly string[];
  embeddings: number[];
  records: Map<RecordTable, number[]>;
  meta: number[];
}

/** The rows of each leaf page in turn; cells that do not decode are counted as unreadable. */
function* rowsOf(found: Found, leaves: readonly number[], report: SalvageReport): Generator<RawRow> {
  for (const leaf of leaves) {
    const { rows, bad } = leafRows(found.pages, leaf);
    report.unreadableRows += bad;
    yield* rows;
  }
}

interface SchemaEntry {
  root: number;
  sql: string;
}

function readSchema(pages: PageFile, claimed: Set<number>): Map<string, SchemaEntry> | null {
  if (!pages.headerValid) return null;
  const { leaves } = treeLeaves(pages, 1, claimed);
  const tables = new Map<string, SchemaEntry>();
  for (const leaf of leaves) {
    for (const { values } of leafRows(pages, leaf).rows) {
      const [type, name, , root, sql] = values;
      if (type === 'table' && typeof name === 'string' && typeof root === 'number' && root > 0) {
        tables.set(name, { root, sql: typeof sql === 'string' ? sql : '' });
      }
    }
  }
  return tables.size > 0 ? tables : null;
}

// Column names of the damaged file's memories table, in stored order: older files differ
// (schema 1 kept the embedding inline). SQLite parses the CREATE statement for us.
function memoryColumns(Database: SqliteDatabaseConstructor, sql: string | undefined): readonly string[] {
  const columnsOf = (prepare: (db: SqliteDatabase) => void) => {
    const scratch = new Database(':memory:');
    try {
      prepare(scratch);
      return (scratch.prepare('PRAGMA table_info(memories)').all() as Array<{ name: string }>).map((row) => row.name);
    } finally {
      scratch.close();
    }
  };
  try {
    if (sql) return columnsOf((scratch) => scratch.exec(sql));
  } catch {
    // A damaged CREATE statement: assume today's schema.
  }
  return columnsOf((scratch) => migrate(scratch));
}

// The recorded dimensions, else the most common vector length among the rows (the meta
// table may be lost too).
function dimensionsOf(meta: Map<string, string>, rows: Iterable<RawRow>): number {
  const recorded = Number(meta.get('embedder_dimensions'));
  if (Number.isInteger(recorded) && recorded > 0) return recorded;
  const lengths = new Map<number, number>();
  for (const row of rows) {
    const blob = row.values[1];
    if (blob instanceof Uint8Array && blob.byteLength % 4 === 0) {
      lengths.set(blob.byteLength / 4, (lengths.get(blob.byteLength / 4) ?? 0) + 1);
    }
  }
  return [...lengths].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

function writeTarget(db: SqliteDatabase, found: Found, report: SalvageReport, orphans: RawRow[]) {
  const meta = new Map<string, string>();
  for (const row of rowsOf(found, found.meta, report)) {
    const pair = metaFromRow(row);
    if (pair) meta.set(...pair);
    else report.unreadableRows += 1;
  }
  const setMeta = db.prepare('INSERT OR REPLACE INTO memoir_meta (key, value) VALUES (?, ?)');
  for (const [key, value] of meta) setMeta.run(key, value);

  // Memories keep their rowids, so the embeddings (keyed by rowid) find them again.
  const insertMemory = db.prepare(
    `INSERT INTO memories (rowid, ${MEMORY_COLUMNS.join(', ')}) VALUES (?, ${MEMORY_COLUMNS.map(() => '?').join(', ')})`,
  );
  const link = db.prepare('INSERT OR IGNORE INTO memory_entities (memory_rowid, entity_key) VALUES (?, ?)');
  const setChangeSeq = db.prepare('UPDATE memories SET change_seq = ? WHERE rowid = ?');
  const changeSeqColumn = found.memoryColumns.indexOf('change_seq');
  const ids = new Set<string>();
  const rowids = new Set<number>();
  const inlineEmbeddings: RawRow[] = [];
  const embeddingColumn = found.memoryColumns.indexOf('embedding');
  const addMemory = (memory: Memory, row: RawRow) => {
    if (ids.has(memory.id)) return;
    // A clashing rowid (an orphan copy of a row): the memory gets a new one and loses its embedding.
    const rowid = rowids.has(row.rowid) ? null : row.rowid;
    const result = insertMemory.run(rowid, ...memoryToRow(memory));
    const stored = Number(result.lastInsertRowid);
    ids.add(memory.id);
    rowids.add(stored);
    for (const entity of memory.entities) link.run(stored, entityKey(entity));
    const changeSeq = changeSeqColumn >= 0 ? row.values[changeSeqColumn] : undefined;
    if (typeof changeSeq === 'number' || typeof changeSeq === 'bigint') setChangeSeq.run(changeSeq, stored);
    const inline = embeddingColumn >= 0 ? row.values[embeddingColumn] : undefined;
    if (rowid !== null && inline instanceof Uint8Array) inlineEmbeddings.push({ rowid, values: [null, inline] });
    report.recovered.memories += 1;
  };
  for (const row of rowsOf(found, found.memories, report)) {
    const memory = memoryFromRow(found.memoryColumns, row);
    if (memory) addMemory(memory, row);
    else report.unreadableRows += 1;
  }
  const orphanEmbeddings: RawRow[] = [];
  const orphanRecords: RecordRow[] = [];
  for (const row of orphans) {
    const memory = row.values.length > 5 ? memoryFromRow(found.memoryColumns, row) : null;
    if (memory) addMemory(memory, row);
    else if (row.values.length === 5) {
      const record = recordFromRow(row);
      if (record) orphanRecords.push(record);
    } else if (row.values.length === 2) orphanEmbeddings.push(row);
  }

  // A scratch report: this pass only measures; the rows are counted when written below.
  const measured = (function* () {
    if (!meta.has('embedder_dimensions')) yield* rowsOf(found, found.embeddings, { ...report });
    yield* inlineEmbeddings;
    yield* orphanEmbeddings;
  })();
  const dimensions = dimensionsOf(meta, measured);
  const setEmbedding = db.prepare('INSERT OR IGNORE INTO memory_embeddings (memory_rowid, embedding) VALUES (?, ?)');
  const addEmbedding = (row: RawRow, byShape: boolean) => {
    const blob = rowids.has(row.rowid) ? embeddingFromRow(row, dimensions, byShape) : null;
    if (blob && setEmbedding.run(row.rowid, blob).changes > 0) report.recovered.embeddings += 1;
    else if (!byShape) report.unreadableRows += 1;
  };
  for (const row of rowsOf(found, found.embeddings, report)) addEmbedding(row, false);
  for (const row of inlineEmbeddings) addEmbedding(row, false);
  for (const row of orphanEmbeddings) addEmbedding(row, true);
  if (dimensions > 0 && !meta.has('embedder_dimensions')) setMeta.run('embedder_dimensions', String(dimensions));
  db.exec('UPDATE memories SET has_embedding = 1 WHERE rowid IN (SELECT memory_rowid FROM memory_embeddings)');

  for (const table of RECORD_TABLES) {
    const insert = db.prepare(
      `INSERT OR IGNORE INTO ${table} (id, agent_id, user_id, namespace, data) VALUES (?, ?, ?, ?, ?)`,
    );
    const add = (record: RecordRow) => {
      if (insert.run(record.id, ...record.columns).changes > 0) report.recovered[table] += 1;
    };
    for (const row of rowsOf(found, found.records.get(table) ?? [], report)) {
      const record = recordFromRow(row);
      if (record) add(record);
      else report.unreadableRows += 1;
    }
    for (const record of orphanRecords) if (recordTableOf(record) === table) add(record);
  }
}

const pathSchema = z.string().min(1, 'expected a file path');

/**
 * Read every row that still reads from the SQLite store at `source` — including committed
 * pages of its `-wal` and table pages cut off from their tree — and write them into a new
 * store at `target` (which must not exist). Indexes, the full-text index and the vector
 * index are rebuilt from the rows; deleted rows (on the freelist) stay deleted. `source`
 * is opened for reading only and never changed or removed.
 *
 * @throws ValidationError for a bad path; StoreError when `source` cannot be read or
 * `target` already exists.
 *
 * @example
 * ```ts
 * const report = await salvageSqliteFile('memoir.sqlite', 'memoir-salvaged.sqlite');
 * console.log(`${report.recovered.memories} memories recovered`);
 * ```
 * @group Checking and repair
 */
export async function salvageSqliteFile(source: string, target: string): Promise<SalvageReport> {
  const from = parseInput(pathSchema, source, COMPONENT, 'source');
  const to = parseInput(pathSchema, target, COMPONENT, 'target');
  if (existsSync(to) || existsSync(`${to}-wal`)) {
    throw new StoreError(`${to} already exists; salvage writes only a new file`, {
      component: COMPONENT,
      suggestion: 'Pass the path of a file that does not exist yet.',
    });
  }
  const Database = await loadSqliteDriver();
  let pages: PageFile;
  try {
    pages = PageFile.open(from);
  } catch (error) {
    throw new StoreError(`cannot read ${from}`, {
      component: COMPONENT,
      cause: error,
      suggestion: 'Check the path and that the file is readable.',
    });
  }
  const report: SalvageReport = {
    source: from,
    target: to,
    recovered: { memories: 0, embeddings: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 },
    unreadableRows: 0,
    lostPages: 0,
    orphanPages: 0,
    schemaFound: false,
    walPages: pages.walPages,
  };
  let db: SqliteDatabase | undefined;
  try {
    const { found, orphans } = readPages(Database, pages, report);
    db = new Database(to);
    migrate(db);
    const current = db;
    current.transaction(() => writeTarget(current, found, report, orphans))();
    db.close();
    db = undefined;
    return report;
  } catch (error) {
    db?.close();
    // Only the new, half-written file is removed; the damaged one was never opened for writing.
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${to}${suffix}`, { force: true });
    throw new StoreError(`salvaging ${from} failed: ${error instanceof Error ? error.message : String(error)}`, {
      component: COMPONENT,
      cause: error,
    });
  } finally {
    pages.close();
  }
}

function readPages(Database: SqliteDatabaseConstructor, pages: PageFile, report: SalvageReport) {
  const claimed = new Set<number>();
  const schema = readSchema(pages, claimed);
  report.schemaFound = schema !== null;
  const leavesOf = (table: string): number[] => {
    const entry = schema?.get(table);
    if (!entry) return [];
    const { leaves, lost } = treeLeaves(pages, entry.root, claimed);
    report.lostPages += lost;
    return leaves;
  };
  const found: Found = {
    pages,
    meta: leavesOf('memoir_meta'),
    memories: leavesOf('memories'),
    memoryColumns: memoryColumns(Database, schema?.get('memories')?.sql),
    embeddings: leavesOf('memory_embeddings'),
    records: new Map(RECORD_TABLES.map((table) => [table, leavesOf(table)])),
  };
  // The other tables (full-text and vector shadow tables) only claim their pages, so
  // that their rows are never mistaken for orphans.
  for (const [, entry] of schema ?? []) treeLeaves(pages, entry.root, claimed);
  const free = pages.freePages();
  const orphans: RawRow[] = [];
  for (let number = 2; number <= pages.pageCount; number++) {
    if (claimed.has(number) || free.has(number) || !isTableLeaf(pages, number)) continue;
    const { rows } = leafRows(pages, number);
    if (rows.length === 0) continue;
    report.orphanPages += 1;
    orphans.push(...rows);
  }
  return { found, orphans };
}
