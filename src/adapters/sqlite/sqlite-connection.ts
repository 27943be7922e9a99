/**
 * Opening a store's file: decide read-only or read-write, refuse a damaged file before
 * anything is written into it, warn about an empty one, then set up WAL and migrate (and drop
 * the sqlite-vec table files from before schema 6 still hold).
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StoreError } from '../../core/spec/errors.js';
import type { Logger } from '../../core/spec/runtime.js';
import { loadSqliteDriver, openDatabase, type SqliteDatabase } from './sqlite-driver.js';
import { damagedError, doctorCommand, isDamage, isReadOnlyFailure, readOnlyError } from './sqlite-errors.js';
import { type FileFacts, inspectFile } from './sqlite-file.js';
import { dropLegacyVectorTable } from './sqlite-legacy-vectors.js';
import { migrate, SCHEMA_VERSION } from './sqlite-schema.js';

const COMPONENT = 'sqlite-store';
const MMAP_BYTES = 1024 ** 3;
/** Files up to this size get `PRAGMA quick_check` at open under `checkOnOpen: 'auto'` (about 0.5 s). */
const QUICK_CHECK_MAX_BYTES = 256 * 1024 ** 2;

/** What opening needs to know. */
export interface ConnectionSettings {
  /** The file, or `:memory:`. */
  path: string;
  /** How long to wait for another process's lock. */
  busyTimeoutMs: number;
  /** Forced read-only (true), or decided from the file's permissions (undefined). */
  readOnly: boolean | undefined;
  /** When to run `PRAGMA quick_check` at open. */
  checkOnOpen: 'auto' | 'always' | 'off';
  /** Where the empty-file and in-memory-copy warnings go. */
  logger: Logger | undefined;
}

/** An open, migrated connection. */
export interface StoreConnection {
  /** The connection. */
  db: SqliteDatabase;
  /** Why the store is read-only, or null when it is writable. */
  readOnly: string | null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Turn a failure while opening into a StoreError that says what happened. */
function openFailure(path: string, readOnly: string | null, error: unknown): StoreError {
  if (StoreError.isInstance(error)) return error;
  if (isDamage(error)) return damagedError(path, message(error), error);
  if (isReadOnlyFailure(error)) return readOnlyError(path, readOnly ?? 'SQLite refused to write', { cause: error });
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const permission = code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
  return new StoreError(`cannot open ${path}: ${message(error)}`, {
    component: COMPONENT,
    cause: error,
    suggestion: permission
      ? 'Check the permissions of the file and its directory.'
      : `Check that no other program holds the file locked; \`${doctorCommand(path)}\` checks the file itself.`,
  });
}

// Checks that need no SQLite: a file SQLite would misread, or one it would make worse.
function refuseBeforeOpening(path: string, facts: FileFacts, readOnly: string | null) {
  if (facts.exists && facts.bytes > 0 && !facts.sqliteHeader) {
    throw damagedError(
      path,
      'it does not start with the SQLite header (its first page was overwritten, or it is not a SQLite database)',
    );
  }
  // SQLite deletes the WAL of a missing or 0-byte database: the committed data in it would be gone.
  if (facts.bytes === 0 && facts.walBytes > 0) {
    throw damagedError(
      path,
      `the file is ${facts.exists ? 'empty (0 bytes)' : 'missing'} but its write-ahead log (${path}-wal) holds ${facts.walBytes} bytes; opening it would discard them`,
    );
  }
  if (readOnly !== null && (!facts.exists || facts.bytes === 0)) {
    throw readOnlyError(path, readOnly, {
      outcome: facts.exists
        ? 'the file is empty (0 bytes), so there is nothing to read'
        : 'there is no store to read there yet',
    });
  }
}

function prepare(db: SqliteDatabase, settings: ConnectionSettings, facts: FileFacts, readOnly: string | null): number {
  const size = facts.bytes + facts.walBytes;
  const check = settings.checkOnOpen === 'always' || (settings.checkOnOpen === 'auto' && size <= QUICK_CHECK_MAX_BYTES);
  // Before the first write: a malformed file is refused rather than written into.
  if (check && facts.exists && facts.bytes > 0) {
    const rows = db.prepare('PRAGMA quick_check(3)').pluck().all() as string[];
    if (rows.length !== 1 || rows[0] !== 'ok') {
      const found = rows.flatMap((row) => row.split('\n')).filter((line) => line && !line.startsWith('***'));
      throw damagedError(settings.path, `PRAGMA quick_check found ${found.join('; ')}`);
    }
  }
  if (readOnly === null) db.pragma('journal_mode = WAL');
  // WAL with synchronous=NORMAL survives a killed process; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Vector search reads every stored vector; mapping the file saves copying it through the page cache.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new StoreError(`${settings.path} has schema version ${version}, newer than this memoir (${SCHEMA_VERSION})`, {
      component: COMPONENT,
      suggestion: 'Upgrade memoir to open this database.',
    });
  }
  if (readOnly === null) {
    const before = migrate(db);
    dropLegacyVectorTable(db, settings.logger);
    return before;
  }
  if (version < SCHEMA_VERSION) {
    throw readOnlyError(settings.path, readOnly, {
      outcome: `it is at schema version ${version} and must be migrated to ${SCHEMA_VERSION} (a write) before this memoir can read it`,
    });
  }
  return version;
}

// Switching a new file to WAL and creating its schema can meet SQLITE_BUSY from another
// process doing the same, without SQLite's busy handler being consulted; retry until the timeout.
async function retryWhileBusy<T>(timeoutMs: number, operation: () => T): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return operation();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const busy = code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
      if (!busy || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 * attempt)));
    }
  }
}

/**
 * Open the store's file. Read-only when asked, or when the file or its directory is not
 * writable; a file that is damaged (bad header, failed quick check, SQLITE_CORRUPT or
 * SQLITE_NOTADB) is refused with a StoreError pointing at `memoir doctor`; a 0-byte file
 * becomes a new store with a warning.
 */
export async function openConnection(settings: ConnectionSettings): Promise<StoreConnection> {
  const Database = await loadSqliteDriver();
  const { path } = settings;
  const memory = path === ':memory:';
  const facts: FileFacts = memory
    ? { exists: false, bytes: 0, walBytes: 0, sqliteHeader: false, writable: true }
    : inspectFile(path);
  const readOnly =
    settings.readOnly === true
      ? 'opened with readOnly: true'
      : facts.writable
        ? null
        : 'the file or its directory is not writable';
  let db: SqliteDatabase;
  try {
    if (!memory) refuseBeforeOpening(path, facts, readOnly);
    if (!memory && !facts.exists) {
      if (readOnly === null) createAtomically(Database, path);
      else mkdirSync(dirname(path), { recursive: true });
    }
    const opened = openDatabase(Database, path, { readOnly: readOnly !== null, timeout: settings.busyTimeoutMs });
    db = opened.db;
    if (opened.inMemoryCopy) {
      settings.logger?.log(
        'warn',
        `${path} is read-only and SQLite cannot open it in place (its -shm file is missing); it was read into memory`,
      );
    }
  } catch (error) {
    throw openFailure(path, readOnly, error);
  }
  try {
    const before = await retryWhileBusy(settings.busyTimeoutMs, () => prepare(db, settings, facts, readOnly));
    // Checked after migrating: a file another process is creating right now is not "empty".
    if (facts.exists && facts.bytes === 0 && before === 0) {
      settings.logger?.log(
        'warn',
        `${path} was empty (0 bytes): it was started as a new, empty store. If it held memories before, it was truncated; \`${doctorCommand(path)}\` shows the backups that can bring them back.`,
      );
    }
    return { db, readOnly };
  } catch (error) {
    db.close();
    throw openFailure(path, readOnly, error);
  }
}

// A new store file appears whole: made beside the path with SQLite's header written (WAL mode),
// then linked into place, which fails when another process got there first. Opened in place,
// the file would be 0 bytes until the first write, and a second process opening it then would
// take it for a truncated store and warn.
function createAtomically(Database: Parameters<typeof openDatabase>[0], path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.new`);
  try {
    const db = new Database(temporary);
    try {
      db.pragma('journal_mode = WAL');
    } finally {
      db.close();
    }
    try {
      linkSync(temporary, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true });
  }
}
