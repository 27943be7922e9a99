/**
 * What `memoir doctor` does to files: find the newest backup that verifies, move a damaged
 * store aside (with its -wal and -shm, never deleting anything), salvage it into a new
 * file, or restore a backup into a new file.
 */
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import {
  checkSqliteFile,
  createSqliteStore,
  type SalvageReport,
  type SqliteFileCheck,
  salvageSqliteFile,
} from '../adapters/sqlite/index.js';
import type { BackupDescription, BackupSummary } from '../core/backup/backup-list.js';
import type { RestoreReport } from '../core/backup/index.js';
import type { MemoryClient } from '../core/client/memory-client.js';
import type { Embedder } from '../core/spec/embedder.js';
import type { Logger } from '../core/spec/runtime.js';
import { createMemory } from '../create-memory.js';
import { CliError } from './cli-errors.js';

/** A backup that was read back completely and checked. */
export type VerifiedBackup = BackupDescription;

/** A backup that did not verify, and why. */
export interface RejectedBackup {
  /** The archive. */
  path: string;
  /** What failed. */
  reason: string;
}

/** What the search for a backup to repair from found. */
export interface BackupSearch {
  /** The newest backup of the whole store that verifies, or null. */
  backup: VerifiedBackup | null;
  /** Backups of the whole store that did not verify (newer than `backup`). */
  rejected: RejectedBackup[];
  /** Backups of one scope, left out: restoring one as the whole store would lose every other scope. */
  scoped: BackupSummary[];
  /** Every backup in the directory. */
  count: number;
}

const SIDE_FILES = ['-wal', '-shm'] as const;

function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^\[memoir\] [\w-]+: /, '');
}

/**
 * The newest backup of the whole store that verifies (older ones are tried in turn), through
 * `client` (an unscoped one). Backups of one scope are never candidates; unreadable ones count as rejected.
 */
export async function newestVerifyingBackup(client: MemoryClient): Promise<BackupSearch> {
  const backups = await client.listBackups();
  const rejected: RejectedBackup[] = [];
  const scoped = backups.filter((listing) => listing.problem === null && listing.scope !== null);
  for (const listing of backups) {
    if (listing.problem !== null) {
      rejected.push({ path: listing.path, reason: listing.problem });
      continue;
    }
    if (listing.scope !== null) continue;
    try {
      const backup = await client.verifyBackup(listing.path);
      // The manifest read for the listing said "whole store"; the full read must agree.
      if (backup.scope === null) return { backup, rejected, scoped, count: backups.length };
    } catch (error) {
      rejected.push({ path: listing.path, reason: reasonOf(error) });
    }
  }
  return { backup: null, rejected, scoped, count: backups.length };
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

/**
 * Move a damaged (or empty) `path` aside and restore the checked whole-store backup `backup`
 * into a new file there, through an unscoped client over the new file. Its automatic
 * before-restore backup (of an empty store) goes to a temporary folder that is removed:
 * left among the backups, it would be the newest "whole store" one.
 */
export async function repairFromBackup(
  path: string,
  backup: VerifiedBackup,
  options: { now: number; embedder: Embedder; logger: Logger; adopt: (client: MemoryClient) => MemoryClient },
): Promise<RepairOutcome & { restored: RestoreReport }> {
  if (backup.scope !== null) {
    throw new CliError(
      `${backup.path} covers one scope only; it cannot restore the whole store`,
      'Pick a backup of the whole store.',
    );
  }
  const movedTo =
    existsSync(path) || SIDE_FILES.some((suffix) => existsSync(path + suffix)) ? moveAside(path, options.now) : null;
  const scratch = mkdtempSync(join(tmpdir(), 'memoir-doctor-restore-'));
  let restored: RestoreReport;
  try {
    const client = options.adopt(
      createMemory({
        store: createSqliteStore({ path, logger: options.logger }),
        embedder: options.embedder,
        logger: options.logger,
        backupDirectory: scratch,
      }),
    );
    try {
      restored = await client.restore(backup.path, { confirm: true });
    } finally {
      await client.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { movedTo, restored, after: await checkSqliteFile(path) };
}
