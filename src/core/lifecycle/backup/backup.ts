/**
 * Backups of a store as `.tar.gz` files in a directory: create (with pruning of automatic
 * backups), list, restore (checked completely before anything is touched) and clear.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NotFoundError, StoreError, ValidationError } from '../../spec/errors.js';
import type { EmbedderIdentity, MemoryStore, RecordCollection } from '../../spec/store.js';
import { exportRecords } from '../transfer.js';
import { type BackupCounts, buildBackupArchive, readBackupArchive } from './backup-archive.js';

const COMPONENT = 'backup';
const DEFAULT_KEEP = 5;
const AUTO_PREFIX = 'auto-';
const FILE_PATTERN = /^(\d{8}-\d{6}-\d{3})_([A-Za-z0-9._-]+?)(?:~(\d+))?\.tar\.gz$/;

/** Options of `createBackup`. */
export interface CreateBackupOptions {
  /** Directory to write into; created when missing. */
  directory: string;
  /**
   * Name of the backup; characters outside `[A-Za-z0-9._-]` become `_`. Default `backup`.
   * Names starting with `auto-` mark automatic backups, which are pruned.
   */
  name?: string;
  /** The embedder the store's vectors were built with, or null to back up without embeddings. */
  embedder: EmbedderIdentity | null;
  /** Configuration to save beside the data as `config.json`. */
  config?: Record<string, unknown>;
  /** Clock in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** How many automatic (`auto-`) backups to keep, newest first. Default 5. Named backups are never pruned. */
  keep?: number;
}

/** What a backup wrote: `createBackup` and the client's `backup()` resolve to it. */
export interface BackupInfo {
  /** Absolute path of the archive. */
  path: string;
  /** The sanitised name. */
  name: string;
  /** When it was made (ISO 8601). */
  createdAt: string;
  /** What it holds. */
  counts: BackupCounts;
  /** Size of the archive file. */
  bytes: number;
}

/** One archive found by {@link listBackups}. */
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

/** Options of `restoreBackup`. */
export interface RestoreOptions {
  /** Must be `true`: restoring replaces everything in the store. */
  confirm: boolean;
  /** The embedder the store uses; embeddings from another embedder are dropped (reindex afterwards). */
  embedder: EmbedderIdentity;
  /** Called after the archive checked out and before the store is emptied, e.g. to back up current data. */
  backupFirst?: () => Promise<unknown>;
}

/** What a restore did: `restoreBackup` and the client's `restore()` resolve to it. */
export interface RestoreReport {
  /** What was restored. */
  restored: BackupCounts;
  /** Memories restored without their embedding because the backup came from another embedder. */
  skippedEmbeddings: number;
  /** The backup's name and creation time, from its manifest. */
  backup: {
    /** The backup's name. */
    name: string;
    /** When it was made (ISO 8601). */
    createdAt: string;
  };
  /** The configuration saved in the backup, or null; applying it is the caller's choice. */
  config: Record<string, unknown> | null;
}

/** Characters outside `[A-Za-z0-9._-]` become `_`; at most 100 characters; empty gives `backup`. */
export function sanitizeBackupName(name: string | undefined): string {
  const cleaned = (name ?? '').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return cleaned.replace(/^\.+/, '') === '' ? 'backup' : cleaned;
}

function stamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2023-10-26T12:34:56.789Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}-${iso.slice(20, 23)}`;
}

function unstamp(text: string): string {
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T${text.slice(9, 11)}:${text.slice(11, 13)}:${text.slice(13, 15)}.${text.slice(16, 19)}Z`;
}

/**
 * Every backup archive in `directory`, newest first. A missing directory gives `[]`.
 * Files not named like memoir backups are ignored.
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

/** Write `data` to a fresh file named from `base`, never overwriting: `base.tar.gz`, then `base~1.tar.gz`, … */
async function writeUnique(directory: string, base: string, data: Buffer): Promise<string> {
  const temp = join(directory, `.${base}.${randomUUID()}.tmp`);
  await writeFile(temp, data, { flag: 'wx' });
  try {
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
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Write a backup of everything in `store` to `<directory>/<timestamp>_<name>.tar.gz`:
 * `manifest.json` (format, version, checksums, counts), `memories.jsonl` (an
 * {@link exportRecords} dump with embeddings) and `config.json` when `config` is given.
 * Afterwards only the newest `keep` automatic (`auto-`) backups are kept.
 *
 * @throws ValidationError for a bad `keep`; StoreError when the directory cannot be written.
 */
export async function createBackup(store: MemoryStore, options: CreateBackupOptions): Promise<BackupInfo> {
  const keep = options.keep ?? DEFAULT_KEEP;
  if (!Number.isInteger(keep) || keep < 1) {
    throw new ValidationError([{ field: 'keep', message: `expected an integer of at least 1 (got ${keep})` }], {
      component: COMPONENT,
    });
  }
  const name = sanitizeBackupName(options.name);
  const now = (options.now ?? Date.now)();
  const createdAt = new Date(now).toISOString();

  const lines: string[] = [];
  for await (const line of exportRecords(store, options.embedder ? { embedder: options.embedder } : {})) {
    lines.push(line);
  }
  const { archive, manifest } = buildBackupArchive({ name, createdAt, lines, config: options.config, mtime: now });

  let path: string;
  try {
    await mkdir(options.directory, { recursive: true });
    path = resolve(await writeUnique(options.directory, `${stamp(now)}_${name}`, archive));
  } catch (error) {
    throw new StoreError(`cannot write a backup into ${options.directory}`, {
      component: COMPONENT,
      suggestion: 'Check that the directory exists or can be created and is writable.',
      cause: error,
    });
  }
  await pruneBackups(options.directory, keep);
  return { path, name, createdAt, counts: manifest.counts, bytes: archive.length };
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

async function deleteEverything(store: MemoryStore): Promise<BackupCounts> {
  const ids = (await store.listMemories()).map((memory) => memory.id);
  const counts: BackupCounts = { memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 };
  if (ids.length > 0) counts.memories = await store.deleteMemories(ids);
  for (const key of ['opinions', 'procedures', 'sessions', 'entities'] as const) {
    const collection = store[key] as RecordCollection<{ id: string }>;
    const recordIds = (await collection.list()).map((record) => record.id);
    if (recordIds.length > 0) counts[key] = await collection.delete(recordIds);
  }
  return counts;
}

/**
 * Delete every memory, opinion, procedure, session and entity in one transaction.
 * Resolves to how many of each were deleted.
 */
export async function clearStore(store: MemoryStore): Promise<BackupCounts> {
  return store.transaction(() => deleteEverything(store));
}

/**
 * Replace everything in `store` with the contents of the backup at `path`.
 *
 * The whole archive is read and checked in memory first (entry names, file types,
 * manifest, checksums, sizes, every record against its schema, counts). Only when all of
 * it checks out is `backupFirst` called, and then the store is emptied and refilled in
 * one transaction: a failure anywhere leaves the current data as it was.
 *
 * @throws ValidationError without `confirm: true`, or when the archive fails any check;
 * NotFoundError when `path` does not exist.
 */
export async function restoreBackup(store: MemoryStore, path: string, options: RestoreOptions): Promise<RestoreReport> {
  if (options?.confirm !== true) {
    throw new ValidationError(
      [{ field: 'confirm', message: `expected true: restoring replaces all current data (got ${options?.confirm})` }],
      { component: COMPONENT, suggestion: 'Pass { confirm: true } to overwrite the current memories with the backup.' },
    );
  }
  let archive: Buffer;
  try {
    archive = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new NotFoundError('backup', path, { component: COMPONENT, cause: error });
    }
    throw new StoreError(`cannot read the backup ${path}`, { component: COMPONENT, cause: error });
  }
  const backup = readBackupArchive(archive);

  await options.backupFirst?.();

  const keepEmbeddings =
    backup.embedder !== null &&
    backup.embedder.id === options.embedder.id &&
    backup.embedder.dimensions === options.embedder.dimensions;
  let skippedEmbeddings = 0;
  const memories = backup.memories.map((record) => {
    if (record.embedding && !keepEmbeddings) {
      skippedEmbeddings += 1;
      return { memory: record.memory, embedding: null };
    }
    return record;
  });

  await store.transaction(async () => {
    await deleteEverything(store);
    if (memories.length > 0) await store.upsertMemories(memories);
    if (backup.records.opinions.length > 0) await store.opinions.upsert(backup.records.opinions);
    if (backup.records.procedures.length > 0) await store.procedures.upsert(backup.records.procedures);
    if (backup.records.sessions.length > 0) await store.sessions.upsert(backup.records.sessions);
    if (backup.records.entities.length > 0) await store.entities.upsert(backup.records.entities);
  });

  return {
    restored: backup.counts,
    skippedEmbeddings,
    backup: { name: backup.manifest.name, createdAt: backup.manifest.createdAt },
    config: backup.config,
  };
}
