/**
 * What `memoir doctor` does to files: find the newest backup that verifies, move a damaged
 * store aside (with its -wal and -shm, never deleting anything), salvage it into a new
 * file, or restore a backup into a new file.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  checkSqliteFile,
  createSqliteStore,
  type SalvageReport,
  type SqliteFileCheck,
  salvageSqliteFile,
} from '../adapters/sqlite/index.js';
import {
  type BackupCounts,
  listBackups,
  type RestoreReport,
  restoreBackup,
  verifyBackup,
} from '../core/lifecycle/backup/index.js';
import type { Logger } from '../core/spec/runtime.js';
import type { EmbedderIdentity } from '../core/spec/store.js';
import { CliError } from './cli-errors.js';

/** A backup that was read back completely and checked. */
export interface VerifiedBackup {
  /** The archive. */
  path: string;
  /** Its name, from the manifest. */
  name: string;
  /** When it was made (ISO 8601). */
  createdAt: string;
  /** What it holds. */
  counts: BackupCounts;
}

/** A backup that did not verify, and why. */
export interface RejectedBackup {
  /** The archive. */
  path: string;
  /** What failed. */
  reason: string;
}

const SIDE_FILES = ['-wal', '-shm'] as const;

function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^\[memoir\] [\w-]+: /, '');
}

/** Read the backup at `path` back completely and check it; throws when it does not verify. */
export async function verifyOne(path: string): Promise<VerifiedBackup> {
  const scanned = await verifyBackup(path);
  return { path, name: scanned.manifest.name, createdAt: scanned.manifest.createdAt, counts: scanned.counts };
}

/** The newest backup in `directory` that verifies (older ones are tried in turn), and the ones that did not. */
export async function newestVerifyingBackup(
  directory: string,
): Promise<{ backup: VerifiedBackup | null; rejected: RejectedBackup[]; count: number }> {
  const backups = await listBackups(directory);
  const rejected: RejectedBackup[] = [];
  for (const listing of backups) {
    try {
      return { backup: await verifyOne(listing.path), rejected, count: backups.length };
    } catch (error) {
      rejected.push({ path: listing.path, reason: reasonOf(error) });
    }
  }
  return { backup: null, rejected, count: backups.length };
}

function stamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/**
 * Rename `path` (and its -wal and -shm) to `<path>.damaged-<time>` beside it, the WAL
 * first: a WAL left behind next to a new file would be replayed into it. Returns the new
 * path; the pair stays openable with SQLite.
 */
export function moveAside(path: string, now: number): string {
  let aside = `${path}.damaged-${stamp(now)}`;
  for (let attempt = 1; [aside, ...SIDE_FILES.map((suffix) => aside + suffix)].some(existsSync); attempt++) {
    aside = `${path}.damaged-${stamp(now)}~${attempt}`;
  }
  try {
    for (const suffix of SIDE_FILES) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
    if (existsSync(path)) renameSync(path, aside);
  } catch (error) {
    throw new CliError(
      `cannot move ${path} aside: ${reasonOf(error)}`,
      'Check that the home directory is writable; nothing was deleted.',
      1,
      { cause: error },
    );
  }
  return aside;
}

/** What a repair did. */
export interface RepairOutcome {
  /** Where the damaged file now is, or null when there was none to move. */
  movedTo: string | null;
  /** The check of the new file. */
  after: SqliteFileCheck;
}

/**
 * Salvage `path` into a new file beside it, then move the damaged one aside and put the
 * new one in its place. The salvage runs first, so a failure leaves everything as it was.
 */
export async function repairBySalvage(path: string, now: number): Promise<RepairOutcome & { salvage: SalvageReport }> {
  const temporary = join(dirname(path), `.${basename(path)}.salvage-${process.pid}-${now}`);
  const salvage = await salvageSqliteFile(path, temporary);
  let movedTo: string;
  try {
    movedTo = moveAside(path, now);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return { movedTo, salvage: { ...salvage, target: path }, after: await checkSqliteFile(path) };
}

/** Move a damaged (or empty) `path` aside and restore the checked backup `backup` into a new file there. */
export async function repairFromBackup(
  path: string,
  backup: VerifiedBackup,
  options: { now: number; embedder: EmbedderIdentity; logger: Logger },
): Promise<RepairOutcome & { restored: RestoreReport }> {
  const movedTo =
    existsSync(path) || SIDE_FILES.some((suffix) => existsSync(path + suffix)) ? moveAside(path, options.now) : null;
  const store = createSqliteStore({ path, logger: options.logger });
  let restored: RestoreReport;
  try {
    await store.open(options.embedder);
    // The new file is empty, so there is nothing to back up first.
    restored = await restoreBackup(store, backup.path, { confirm: true, embedder: options.embedder });
  } finally {
    await store.close();
  }
  return { movedTo, restored, after: await checkSqliteFile(path) };
}
