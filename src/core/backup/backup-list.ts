/**
 * Backups listed with what they cover: each archive's manifest (its first entry) is read
 * to learn the scope it was limited to and its counts, without inflating the rest. A
 * backup of one scope must never be taken for a backup of the whole store, and a scoped
 * caller sees only the backups of its own scope.
 *
 * @module
 */
import { scopeMatches } from '../search/memory-filter.js';
import { isEmptyScope } from '../search/scope-boundary.js';
import { StoreError } from '../spec/errors.js';
import type { Scope } from '../spec/memory.js';
import { type BackupListing, listBackups } from './backup-files.js';
import {
  type BackupCounts,
  type BackupManifest,
  invalid,
  MANIFEST_FILE,
  MAX_SMALL_FILE_BYTES,
  parseManifest,
} from './backup-manifest.js';
import { DEFAULT_MAX_BACKUP_BYTES, openBackup, verifyBackup } from './backup-reader.js';
import { ArchiveReadError, gunzipStream, readTarStream } from './tar-stream.js';

/** Headers and what gunzip inflates ahead of the reader, on top of the manifest itself. */
const READ_AHEAD = 4 * 1024 * 1024;

/**
 * One backup archive with what its manifest says it covers.
 *
 * @group Backups and maintenance
 */
export interface BackupSummary extends BackupListing {
  /**
   * The scope the backup was limited to; `null` for a backup of the whole store. Only a
   * backup with `scope: null` (and `problem: null`) can restore a whole store.
   */
  scope: Scope | null;
  /** What the manifest says the backup holds, or null when it could not be read. */
  counts: BackupCounts | null;
  /**
   * Why the manifest could not be read (a damaged or foreign file), or null. Such a
   * backup's scope is unknown: only an unscoped client lists it, and nothing restores it.
   */
  problem: string | null;
}

/**
 * Read the manifest of the backup at `path`: the archive's first entry, inflated alone.
 * Checks the manifest, not the data: `verifyBackupAt` reads everything.
 *
 * @throws ValidationError when the file is not a memoir backup or its manifest is bad;
 * NotFoundError when there is no file at `path`; StoreError when it cannot be read.
 */
export async function readBackupManifest(path: string): Promise<BackupManifest> {
  const handle = await openBackup(path);
  const inflated = gunzipStream(handle.createReadStream({ autoClose: true }), MAX_SMALL_FILE_BYTES + READ_AHEAD);
  try {
    for await (const entry of readTarStream(inflated, { maxBytes: DEFAULT_MAX_BACKUP_BYTES })) {
      if (entry.name !== MANIFEST_FILE) break;
      if (entry.size > MAX_SMALL_FILE_BYTES) break;
      const parts: Buffer[] = [];
      for await (const chunk of entry.body) parts.push(chunk);
      return parseManifest(Buffer.concat(parts).toString('utf8'));
    }
  } catch (error) {
    if (error instanceof ArchiveReadError) {
      throw new StoreError(`cannot read the backup ${path}`, { component: 'backup', cause: error.cause });
    }
    throw error;
  } finally {
    await inflated.return(undefined);
  }
  throw invalid([{ field: MANIFEST_FILE, message: 'expected as the first entry of the archive' }]);
}

/** The scope a manifest names, or null for a backup of the whole store. */
function scopeOf(manifest: BackupManifest): Scope | null {
  return isEmptyScope(manifest.scope) ? null : (manifest.scope ?? null);
}

/**
 * What a backup covers and holds: from its manifest (`inspectBackup`), or counted while
 * reading all of it back (`verifyBackup`).
 *
 * @group Backups and maintenance
 */
export interface BackupDescription {
  /** The archive. */
  path: string;
  /** Its name, from the manifest. */
  name: string;
  /** When it was made (ISO 8601), from the manifest. */
  createdAt: string;
  /** The scope it was limited to; `null` for a backup of the whole store. */
  scope: Scope | null;
  /** What it holds. */
  counts: BackupCounts;
}

/**
 * What the backup at `path` says it covers and holds, from its manifest alone.
 *
 * @throws ValidationError when it is not a memoir backup or its manifest is bad.
 */
export async function inspectBackupAt(path: string): Promise<BackupDescription> {
  const manifest = await readBackupManifest(path);
  return {
    path,
    name: manifest.name,
    createdAt: manifest.createdAt,
    scope: scopeOf(manifest),
    counts: manifest.counts,
  };
}

/**
 * Read the backup at `path` back completely and check everything, writing nothing. With
 * `scope`, a backup holding anything outside it is refused.
 *
 * @throws ValidationError when any check fails; NotFoundError when `path` does not exist.
 */
export async function verifyBackupAt(path: string, scope?: Scope): Promise<BackupDescription> {
  const scanned = await verifyBackup(path, isEmptyScope(scope) ? {} : { scope });
  const { name, createdAt } = scanned.manifest;
  return { path, name, createdAt, scope: scopeOf(scanned.manifest), counts: scanned.counts };
}

function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^\[memoir\] [\w-]+: /, '');
}

/** Whether a backup lies within `scope`: every field `scope` names is the backup's too. No scope: every backup. */
export function backupWithin(summary: Pick<BackupSummary, 'scope' | 'problem'>, scope: Scope | undefined): boolean {
  if (isEmptyScope(scope)) return true;
  if (summary.problem !== null || summary.scope === null) return false;
  return scopeMatches(summary.scope, scope);
}

/**
 * The backups in `directory`, newest first, each with its scope and counts from its
 * manifest. With `scope`, only the backups within it (a backup of the whole store or of
 * another scope is left out, and so is one whose manifest cannot be read).
 */
export async function listBackupSummaries(directory: string, scope?: Scope): Promise<BackupSummary[]> {
  const summaries: BackupSummary[] = [];
  for (const listing of await listBackups(directory)) {
    let summary: BackupSummary;
    try {
      const manifest = await readBackupManifest(listing.path);
      summary = { ...listing, scope: scopeOf(manifest), counts: manifest.counts, problem: null };
    } catch (error) {
      summary = { ...listing, scope: null, counts: null, problem: reasonOf(error) };
    }
    if (backupWithin(summary, scope)) summaries.push(summary);
  }
  return summaries;
}
