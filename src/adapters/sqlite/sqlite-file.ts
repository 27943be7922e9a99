/** What can be learnt about a store's file before SQLite touches it. */
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { hasSqliteMagic } from './sqlite-pages.js';

/** Facts about a database file and its write-ahead log. */
export interface FileFacts {
  /** The file exists. */
  exists: boolean;
  /** Its size in bytes (0 when missing). */
  bytes: number;
  /** Size of `<path>-wal` in bytes (0 when missing). */
  walBytes: number;
  /** It starts with the SQLite header (false when missing or empty). */
  sqliteHeader: boolean;
  /** This process may write the file and create files beside it (checked with access(2), so it holds for root too when the file system says no). */
  writable: boolean;
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function startsWithHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && hasSqliteMagic(head);
  } finally {
    closeSync(fd);
  }
}

/**
 * Look at `path` without opening it with SQLite. A store is writable when the file (if it
 * exists) and its directory (where SQLite keeps the `-wal` and `-shm` files) both are; a
 * missing directory counts as writable, since it will be created.
 */
export function inspectFile(path: string): FileFacts {
  const bytes = sizeOf(path);
  const directory = dirname(path);
  const directoryWritable = sizeOf(directory) === null || canWrite(directory);
  const walBytes = sizeOf(`${path}-wal`) ?? 0;
  if (bytes === null) return { exists: false, bytes: 0, walBytes, sqliteHeader: false, writable: directoryWritable };
  return {
    exists: true,
    bytes,
    walBytes,
    sqliteHeader: bytes > 0 && startsWithHeader(path),
    writable: directoryWritable && canWrite(path),
  };
}
