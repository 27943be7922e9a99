/**
 * Backup files in a directory: their names (`<timestamp>_<name>[~n].tar.gz`), listing,
 * pruning of automatic backups, and giving a finished temporary file its final name
 * without ever overwriting another backup.
 *
 * @module
 */
import { link, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StoreError } from '../spec/errors.js';

const COMPONENT = 'backup';
/** How many automatic backups are kept by default. */
export const DEFAULT_KEEP = 5;
/** Names of automatic backups start with this. */
export const AUTO_PREFIX = 'auto-';
const FILE_PATTERN = /^(\d{8}-\d{6}-\d{3})_([A-Za-z0-9._-]+?)(?:~(\d+))?\.tar\.gz$/;

/**
 * One archive found by `listBackups`.
 *
 * @group Backups and maintenance
 */
export interface BackupListing {
  /** Absolute path of the archive. */
  path: string;
  /** The name part of the file name. */
  name: string;
  /** When it was made (ISO 8601, from the file name). */
  createdAt: string;
  /** Size of the archive file. */
  bytes: number;
  /** Whether it is an automatic backup (name starting with `auto-`), subject to pruning. */
  automatic: boolean;
}

/** Characters outside `[A-Za-z0-9._-]` become `_`; at most 100 characters; empty gives `backup`. */
export function sanitizeBackupName(name: string | undefined): string {
  const cleaned = (name ?? '').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return cleaned.replace(/^\.+/, '') === '' ? 'backup' : cleaned;
}

/** The timestamp part of a backup's file name: `20231026-123456-789`. */
export function stamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2023-10-26T12:34:56.789Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}-${iso.slice(20, 23)}`;
}

function unstamp(text: string): string {
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T${text.slice(9, 11)}:${text.slice(11, 13)}:${text.slice(13, 15)}.${text.slice(16, 19)}Z`;
}

/**
 * Every backup archive in `directory`, newest first. A missing directory gives `[]`.
 * Files not named like memoir backups (temporary files among them) are ignored.
 */
export async function listBackups(directory: string): Promise<BackupListing[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new StoreError(`cannot read the backup directory ${directory}`, { component: COMPONENT, cause: error });
  }
  const found: (BackupListing & { sortKey: string })[] = [];
  for (const file of names) {
    const match = FILE_PATTERN.exec(file);
    if (!match) continue;
    const path = resolve(directory, file);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) continue;
    const name = match[2]!;
    found.push({
      path,
      name,
      createdAt: unstamp(match[1]!),
      bytes: info.size,
      automatic: name.startsWith(AUTO_PREFIX),
      sortKey: `${match[1]!}~${(match[3] ?? '0').padStart(6, '0')}`,
    });
  }
  found.sort((a, b) => (a.sortKey === b.sortKey ? 0 : a.sortKey < b.sortKey ? 1 : -1));
  return found.map(({ sortKey: _, ...listing }) => listing);
}

/** Delete all but the newest `keep` automatic backups; resolves to the deleted paths. */
export async function pruneBackups(directory: string, keep: number = DEFAULT_KEEP): Promise<string[]> {
  const automatic = (await listBackups(directory)).filter((backup) => backup.automatic);
  const deleted: string[] = [];
  for (const backup of automatic.slice(keep)) {
    await unlink(backup.path).catch(() => undefined);
    deleted.push(backup.path);
  }
  return deleted;
}

/**
 * Give the finished file `temp` a fresh name from `base`, never overwriting: `base.tar.gz`,
 * then `base~1.tar.gz`, … Resolves to the new path; `temp` may still exist afterwards
 * (a hard link leaves it), so the caller removes it.
 */
export async function linkUnique(directory: string, base: string, temp: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const target = join(directory, attempt === 0 ? `${base}.tar.gz` : `${base}~${attempt}.tar.gz`);
    try {
      await link(temp, target);
      return target;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && attempt < 1000) continue;
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV') {
        // No hard links on this file system: check, then rename.
        const exists = await stat(target).then(
          () => true,
          () => false,
        );
        if (exists) continue;
        await rename(temp, target);
        return target;
      }
      throw error;
    }
  }
}
