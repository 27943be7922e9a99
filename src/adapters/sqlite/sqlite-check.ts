/** `checkSqliteFile`: is a store's file intact? Reads only; never changes the file. */
import { z } from 'zod';
import { parseInput } from '../../core/utils/validate.js';
import { loadSqliteDriver, openDatabase, type SqliteDatabase } from './sqlite-driver.js';
import { isDamage } from './sqlite-errors.js';
import { inspectFile } from './sqlite-file.js';
import { SCHEMA_VERSION } from './sqlite-schema.js';

/**
 * What a check concluded: `ok`; `missing` (no file yet: a new store starts there);
 * `empty` (a 0-byte file: nothing to read, perhaps truncated); `damaged`; `newer` (made
 * by a newer memoir); `unreadable` (the file could not be opened, e.g. no permission).
 *
 * @group Checking and repair
 */
export type SqliteFileStatus = 'ok' | 'missing' | 'empty' | 'damaged' | 'newer' | 'unreadable';

/**
 * Rows readable in each table, for the report.
 *
 * @group Checking and repair
 */
export interface SqliteTableCounts {
  /** Memories. */
  memories: number;
  /** Stored embeddings. */
  embeddings: number;
  /** Opinions. */
  opinions: number;
  /** Procedures. */
  procedures: number;
  /** Sessions. */
  sessions: number;
  /** Entities. */
  entities: number;
}

/**
 * What {@link checkSqliteFile} found.
 *
 * @group Checking and repair
 */
export interface SqliteFileCheck {
  /** The file checked. */
  path: string;
  /** The conclusion. */
  status: SqliteFileStatus;
  /** Size of the file in bytes. */
  bytes: number;
  /** Size of its write-ahead log (`-wal`) in bytes. */
  walBytes: number;
  /** True when the file or its directory is not writable (the check then ran read-only). */
  readOnly: boolean;
  /** `PRAGMA user_version`: the schema step the file is at, or null when it could not be read. */
  schemaVersion: number | null;
  /** Result of `PRAGMA integrity_check` (pages, b-trees, indexes; the FTS5 index a file from before schema 6 holds). */
  integrity: 'ok' | 'failed' | 'skipped';
  /**
   * Whether the full-text index of a schema 2–5 file matches the memories table (skipped
   * when read-only or busy, and for schema 6 on, whose search index is rebuilt in memory).
   */
  fullText: 'ok' | 'failed' | 'skipped';
  /** Rows counted per table, or null when the tables could not be counted. */
  counts: SqliteTableCounts | null;
  /** What is wrong, one sentence each; empty when the status is `ok` or `missing`. */
  problems: string[];
}

const checkOptionsSchema = z
  .object({
    /** Open read-only even when the file is writable (skips the full-text comparison). */
    readOnly: z.boolean().optional(),
    /** Most integrity-check messages to report. Default 20. */
    maxProblems: z.number().int().min(1).max(10_000).optional(),
    /** How long to wait for another process's lock, milliseconds. Default 5000. */
    busyTimeoutMs: z.number().int().min(0).max(600_000).optional(),
  })
  .strict();

/**
 * Options of {@link checkSqliteFile}.
 *
 * @group Checking and repair
 */
export type CheckSqliteFileOptions = z.input<typeof checkOptionsSchema>;

const TABLES = {
  memories: 'memories',
  embeddings: 'memory_embeddings',
  opinions: 'opinions',
  procedures: 'procedures',
  sessions: 'sessions',
  entities: 'entities',
} as const;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function runChecks(db: SqliteDatabase, maxProblems: number, report: SqliteFileCheck) {
  const problems = report.problems;
  try {
    const rows = db.prepare(`PRAGMA integrity_check(${maxProblems})`).pluck().all() as string[];
    report.integrity = rows.length === 1 && rows[0] === 'ok' ? 'ok' : 'failed';
    if (report.integrity === 'failed') problems.push(...rows.map((row) => `integrity check: ${row}`));
  } catch (error) {
    report.integrity = 'failed';
    problems.push(`integrity check could not run: ${message(error)}`);
  }
  try {
    report.schemaVersion = db.pragma('user_version', { simple: true }) as number;
  } catch (error) {
    problems.push(`the schema version cannot be read: ${message(error)}`);
    return;
  }
  if (report.schemaVersion > SCHEMA_VERSION) return;
  let tables: Set<string>;
  try {
    tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  } catch (error) {
    problems.push(`the schema cannot be read: ${message(error)}`);
    return;
  }
  // A file SQLite made but memoir never migrated is an empty store, not a damaged one.
  if (report.schemaVersion === 0 && tables.size === 0) return;
  const counts: Partial<SqliteTableCounts> = {};
  for (const [key, table] of Object.entries(TABLES) as Array<[keyof SqliteTableCounts, string]>) {
    if (!tables.has(table)) {
      // An older schema lacks later tables; opening the store migrates it.
      if (report.schemaVersion >= SCHEMA_VERSION) problems.push(`the ${table} table is missing`);
      else counts[key] = 0;
      continue;
    }
    try {
      counts[key] = db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    } catch (error) {
      problems.push(`the ${table} table cannot be read: ${message(error)}`);
    }
  }
  if (Object.keys(counts).length === Object.keys(TABLES).length) report.counts = counts as SqliteTableCounts;
  // Versions 2 to 5 kept an FTS5 index in the file; from 6 on, search is indexed in process.
  if (!tables.has('memories_fts') && report.schemaVersion >= 2 && report.schemaVersion < 6) {
    problems.push('the full-text index (memories_fts) is missing');
  }
}

// FTS5's own check, comparing the index with the memories table (rank 1). It is an INSERT
// in form only, so it needs a writable connection, and runs in a transaction rolled back.
function checkFullText(db: SqliteDatabase, report: SqliteFileCheck) {
  try {
    db.exec('BEGIN');
    db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run();
    report.fullText = 'ok';
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return;
    report.fullText = 'failed';
    report.problems.push(`the full-text index does not match the memories table: ${message(error)}`);
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

/**
 * Check a store's SQLite file without changing it: the file's size and header,
 * `PRAGMA integrity_check`, the schema version, that every table reads, and that the
 * full-text index matches the memories (this last part needs a writable file). Resolves
 * with what was found; damage is reported, not thrown.
 *
 * @example
 * ```ts
 * const check = await checkSqliteFile('/home/me/.memoir/memoir.sqlite');
 * if (check.status === 'damaged') console.log(check.problems.join('\n'));
 * ```
 * @group Checking and repair
 */
export async function checkSqliteFile(path: string, options: CheckSqliteFileOptions = {}): Promise<SqliteFileCheck> {
  const file = parseInput(z.string().min(1, 'expected a file path'), path, 'sqlite-check', 'path');
  const settings = parseInput(checkOptionsSchema, options, 'sqlite-check', 'options');
  const facts = inspectFile(file);
  const readOnly = settings.readOnly === true || !facts.writable;
  const report: SqliteFileCheck = {
    path: file,
    status: 'ok',
    bytes: facts.bytes,
    walBytes: facts.walBytes,
    readOnly,
    schemaVersion: null,
    integrity: 'skipped',
    fullText: 'skipped',
    counts: null,
    problems: [],
  };
  if (facts.bytes === 0 && facts.walBytes > 0) {
    report.problems.push(
      `the file is ${facts.exists ? 'empty (0 bytes)' : 'missing'} but its write-ahead log holds ${facts.walBytes} bytes; opening it with SQLite would discard them`,
    );
    return { ...report, status: 'damaged' };
  }
  if (!facts.exists) return { ...report, status: 'missing' };
  if (facts.bytes === 0) {
    report.problems.push('the file is empty (0 bytes): it holds no memories; if it held some, it was truncated');
    return { ...report, status: 'empty' };
  }
  if (!facts.sqliteHeader) {
    report.problems.push(
      'the file does not start with the SQLite header: its first page was overwritten, or it is not a SQLite database',
    );
    return { ...report, status: 'damaged' };
  }
  const Database = await loadSqliteDriver();
  const timeout = settings.busyTimeoutMs ?? 5000;
  // Read-only first: a damaged file is never opened for writing (closing a writer folds
  // the WAL into the file).
  let db: SqliteDatabase;
  try {
    ({ db } = openDatabase(Database, file, { readOnly: true, timeout }));
  } catch (error) {
    report.problems.push(`the file cannot be opened: ${message(error)}`);
    return { ...report, status: isDamage(error) ? 'damaged' : 'unreadable' };
  }
  let hasFullText = false;
  try {
    runChecks(db, settings.maxProblems ?? 20, report);
    hasFullText = report.problems.length === 0 && report.counts !== null && report.schemaVersion !== null;
  } finally {
    db.close();
  }
  if (hasFullText && report.schemaVersion! >= 2 && report.schemaVersion! < 6 && !readOnly) {
    const writer = openDatabase(Database, file, { readOnly: false, timeout }).db;
    try {
      checkFullText(writer, report);
    } finally {
      writer.close();
    }
  }
  if (report.schemaVersion !== null && report.schemaVersion > SCHEMA_VERSION) {
    report.problems.push(
      `the file has schema version ${report.schemaVersion}, newer than this memoir (${SCHEMA_VERSION}); upgrade memoir to open it`,
    );
    return { ...report, status: 'newer' };
  }
  return { ...report, status: report.problems.length > 0 ? 'damaged' : 'ok' };
}
