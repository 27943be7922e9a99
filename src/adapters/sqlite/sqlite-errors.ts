/** SQLite's error codes turned into StoreErrors that say what happened and what to do. */
import { basename, dirname } from 'node:path';
import { StoreError } from '../../core/spec/errors.js';

const COMPONENT = 'sqlite-store';

/** The SQLite result code of a better-sqlite3 error (`SQLITE_CORRUPT`, …), if any. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** True for the codes SQLite uses for a malformed file: `SQLITE_CORRUPT*`, `SQLITE_NOTADB`. */
export function isDamage(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** True for `SQLITE_READONLY*`: the file, its directory or the connection cannot be written. */
export function isReadOnlyFailure(error: unknown): boolean {
  return sqliteCode(error)?.startsWith('SQLITE_READONLY') === true;
}

/** Quote a path for a shell command line when it needs it. */
function shellPath(path: string): string {
  return /^[\w@%+=:,./~-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The `memoir doctor` command line that checks the store at `path`. */
export function doctorCommand(path: string): string {
  return basename(path) === 'memoir.sqlite'
    ? `memoir doctor --home ${shellPath(dirname(path))}`
    : `memoir doctor ${shellPath(path)}`;
}

/** The StoreError for a damaged file: says so, and points at `memoir doctor` (never at permissions). */
export function damagedError(path: string, detail: string, cause?: unknown): StoreError {
  return new StoreError(`${path} is damaged: ${detail}`, {
    component: COMPONENT,
    cause,
    suggestion: `Run \`${doctorCommand(path)}\` to see what is wrong, then \`… --repair\` to move the damaged file aside and salvage what it holds, or \`… --restore-backup\` to start again from the newest backup that verifies. The damaged file is never deleted.`,
  });
}

/** The StoreError for a write refused because the store is read-only (`outcome` says what could not happen). */
export function readOnlyError(
  path: string,
  reason: string,
  options: { outcome?: string; cause?: unknown } = {},
): StoreError {
  const { outcome = 'this write was refused', cause } = options;
  return new StoreError(`${path} is read-only (${reason}); ${outcome}`, {
    component: COMPONENT,
    cause,
    suggestion:
      'Reads still work. To write, make the file and its directory writable, or copy the home directory somewhere writable and pass --home (or MEMOIR_HOME).',
  });
}
