/**
 * Backups of a store, or of one scope of it, as `.tar.gz` files in a directory: create
 * (with pruning of automatic backups), restore (checked completely before anything is
 * touched) and clear. Archives are written and read as streams, so memory use does not
 * grow with their size.
 *
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import { scopeMatches } from '../search/memory-filter.js';
import { isEmptyScope } from '../search/scope-boundary.js';
import { ValidationError } from '../spec/errors.js';
import type { Scope } from '../spec/memory.js';
import type { EmbedderIdentity, MemoryRecord } from '../spec/store.js';
import { type CoreStore, coreStore, type RecordCollection, type StoreLike } from '../store/store-facade.js';
import { type BulkWriter, changeAtomically } from './atomic-change.js';
import { type DumpItem, idOfItem, lineLabel } from './backup-dump.js';
import { DEFAULT_KEEP, pruneBackups, sanitizeBackupName, stamp } from './backup-files.js';
import { type BackupCounts, type BackupManifest, invalid } from './backup-manifest.js';
import { openBackup, type ScannedBackup, scanBackupFile } from './backup-reader.js';
import { writeBackupFile } from './backup-writer.js';
import { exportLines } from './transfer.js';

export { type BackupListing, listBackups, pruneBackups, sanitizeBackupName } from './backup-files.js';

const COMPONENT = 'backup';
/** Memories read from the store per page while backing up: small, so no read holds the event loop long. */
const EXPORT_PAGE = 200;

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
  /** Back up only the memories and records of this scope (every field it names equal). Default: everything. */
  scope?: Scope;
  /** Configuration to save beside the data as `config.json`. */
  config?: Record<string, unknown>;
  /** Clock in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** How many automatic (`auto-`) backups to keep, newest first. Default 5. Named backups are never pruned. */
  keep?: number;
  /** Called as the data is written: memories and records so far, and how many there are. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * What a backup wrote: `createBackup` and the client's `backup()` resolve to it.
 *
 * @group Backups and maintenance
 */
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

/** Options of `restoreBackup`. */
export interface RestoreOptions {
  /** Must be `true`: restoring replaces everything in the store (or in `scope`). */
  confirm: boolean;
  /** The embedder the store uses; embeddings from another embedder are dropped (reindex afterwards). */
  embedder: EmbedderIdentity;
  /**
   * Replace only this scope's memories and records, and refuse an archive holding anything
   * outside it, or anything that would replace (by id) data of another scope. Default: the
   * archive's own scope — a backup made by a scoped client replaces that scope only, even when
   * restored without one (an admin) — and the whole store for a whole-store backup.
   */
  scope?: Scope;
  /** Called after the archive checked out and before the store is emptied, e.g. to back up current data. */
  backupFirst?: () => Promise<unknown>;
  /**
   * Called as the archive is read: items (memories and records) so far of those it holds, in
   * the pass that checks it and in the pass that writes it.
   */
  onProgress?: (done: number, total: number, phase: 'checking' | 'restoring') => void;
  /** Most bytes of data the archive may unpack to. Default 64 GiB; memory use does not depend on it. */
  maxBytes?: number;
}

/**
 * What a restore did: `restoreBackup` and the client's `restore()` resolve to it.
 *
 * @group Backups and maintenance
 */
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
  /**
   * The scope whose data was replaced; absent when the whole store was. Set for a scoped
   * caller and also for a backup made by a scoped client, whatever the caller: such a backup
   * never replaces the data of other scopes.
   */
  scope?: Scope;
}

/**
 * Write a backup of `store` (or of `options.scope`) to `<directory>/<timestamp>_<name>.tar.gz`:
 * `manifest.json` (format, version, scope, checksums, counts), `memories.jsonl` (an
 * {@link exportRecords} dump with embeddings) and `config.json` when `config` is given.
 * Written as a stream: memory stays bounded and the event loop keeps turning. Afterwards
 * only the newest `keep` automatic (`auto-`) backups are kept.
 *
 * @throws ValidationError for a bad `keep`; StoreError when the directory cannot be written
 * (no partial file is left behind).
 */
export async function createBackup(given: StoreLike, options: CreateBackupOptions): Promise<BackupInfo> {
  const store = coreStore(given);
  const keep = options.keep ?? DEFAULT_KEEP;
  if (!Number.isInteger(keep) || keep < 1) {
    throw new ValidationError([{ field: 'keep', message: `expected an integer of at least 1 (got ${keep})` }], {
      component: COMPONENT,
    });
  }
  const name = sanitizeBackupName(options.name);
  const now = (options.now ?? Date.now)();
  const createdAt = new Date(now).toISOString();
  const scope = isEmptyScope(options.scope) ? undefined : options.scope;

  const written = await writeBackupFile({
    directory: options.directory,
    base: `${stamp(now)}_${name}`,
    name,
    createdAt,
    mtime: now,
    scope,
    config: options.config,
    lines: exportLines(store, {
      filter: scope ? { scope } : undefined,
      embedder: options.embedder ?? undefined,
      pageSize: EXPORT_PAGE,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    }),
  });
  await pruneBackups(options.directory, keep);
  return { path: written.path, name, createdAt, counts: written.manifest.counts, bytes: written.bytes };
}

/**
 * Delete every memory, opinion, procedure, session and entity — or, with `scope`, only
 * those of that scope (tallies of other scopes stay true: records are keyed by the exact
 * scope of what they count) — as one all-or-nothing change, also when the process is killed.
 * Resolves to how many of each were deleted.
 */
export async function clearStore(store: StoreLike, options: { scope?: Scope } = {}): Promise<BackupCounts> {
  const scope = isEmptyScope(options.scope) ? undefined : options.scope;
  const { removed } = await changeAtomically(store, { replace: { scope } }, async () => undefined);
  return removed;
}

/** Refuse items that would replace, by id, a memory or record outside `scope`. */
async function refuseForeignIds(store: CoreStore, items: readonly DumpItem[], scope: Scope): Promise<void> {
  const byKey = new Map<DumpItem['key'], Map<string, number>>();
  for (const item of items) {
    const lines = byKey.get(item.key) ?? new Map<string, number>();
    if (!lines.has(idOfItem(item))) lines.set(idOfItem(item), item.line);
    byKey.set(item.key, lines);
  }
  for (const [key, lines] of byKey) {
    const ids = [...lines.keys()];
    const existing =
      key === 'memories'
        ? await store.getMemories(ids)
        : await (store[key] as RecordCollection<{ id: string; scope: Scope }>).get(ids);
    const clash = existing.find((found) => !scopeMatches(found.scope, scope));
    if (clash) {
      throw invalid(
        [
          {
            field: `${lineLabel(lines.get(clash.id)!)}.id`,
            message: 'expected an id not used outside the scope being restored',
          },
        ],
        'A scoped restore never replaces another scope’s data; nothing was restored.',
      );
    }
  }
}

/** Write one batch of a checked archive; resolves to how many embeddings were dropped. */
async function writeItems(writer: BulkWriter, items: readonly DumpItem[], keepEmbeddings: boolean): Promise<number> {
  let skipped = 0;
  const memories: MemoryRecord[] = [];
  const records = new Map<Exclude<DumpItem['key'], 'memories'>, { id: string; scope: Scope }[]>();
  for (const item of items) {
    if (item.key === 'memories') {
      const { memory, embedding } = item.record;
      if (embedding && !keepEmbeddings) skipped += 1;
      memories.push({ memory, embedding: keepEmbeddings ? embedding : null });
    } else {
      const pending = records.get(item.key) ?? [];
      pending.push(item.record);
      records.set(item.key, pending);
    }
  }
  if (memories.length > 0) await writer.upsertMemories(memories);
  for (const [key, pending] of records) {
    await writer.upsertRecords(key, pending);
  }
  return skipped;
}

function sameManifest(a: ScannedBackup, b: ScannedBackup): boolean {
  return JSON.stringify(a.manifest) === JSON.stringify(b.manifest);
}

/**
 * Replace everything in `store` — or, with `options.scope` or for a backup made by a scoped
 * client, that scope's data only — with the contents of the backup at `path`.
 *
 * The archive is read as a stream twice. The first pass checks all of it and writes
 * nothing: entry names, file types, manifest, checksums, sizes, every record against its
 * schema (and the scope), the counts, and with a scope that no id belongs to another
 * scope. Only then is `backupFirst` called, and the store is emptied (of the scope) and
 * refilled as one all-or-nothing change during the second pass, which checks everything
 * again and drops the change if the file changed in between: a failure anywhere, or a
 * process killed at any point, leaves the current data as it was or the backup's whole
 * (a store with staged changes finishes a committed change on its next open). Memory use
 * does not grow with the archive.
 *
 * @throws ValidationError without `confirm: true`, or when the archive fails any check;
 * NotFoundError when `path` does not exist.
 */
export async function restoreBackup(given: StoreLike, path: string, options: RestoreOptions): Promise<RestoreReport> {
  const store = coreStore(given);
  if (options?.confirm !== true) {
    throw new ValidationError(
      [{ field: 'confirm', message: `expected true: restoring replaces all current data (got ${options?.confirm})` }],
      {
        component: COMPONENT,
        suggestion: 'Pass { confirm: true } to overwrite the current memories with the backup.',
        hint: { code: 'confirm' },
      },
    );
  }
  const handle: FileHandle = await openBackup(path);
  try {
    const asked = isEmptyScope(options.scope) ? undefined : options.scope;
    const report = options.onProgress;
    // The manifest, read first, says how many items follow; each pass counts them as they pass.
    let total = 0;
    const onManifest = (manifest: BackupManifest) => {
      total = Object.values(manifest.counts).reduce((sum, count) => sum + count, 0);
    };
    const checkAgainst = (scope: Scope | undefined) => {
      let done = 0;
      return scanBackupFile(handle, path, {
        maxBytes: options.maxBytes,
        scope,
        onManifest,
        onBatch:
          scope || report
            ? async (items) => {
                if (scope) await refuseForeignIds(store, items, scope);
                done += items.length;
                report?.(done, total, 'checking');
              }
            : undefined,
      });
    };
    let checked = await checkAgainst(asked);
    // A backup made by a scoped client holds one scope: restored by an unscoped caller it
    // replaces that scope, never the whole store (which would delete every other scope's data).
    const archived = isEmptyScope(checked.manifest.scope) ? undefined : checked.manifest.scope;
    const scope = asked ?? archived;
    if (!asked && scope) checked = await checkAgainst(scope);

    await options.backupFirst?.();

    const keepEmbeddings =
      checked.embedder !== null &&
      checked.embedder.id === options.embedder.id &&
      checked.embedder.dimensions === options.embedder.dimensions;
    let skippedEmbeddings = 0;
    // Removal and writes land together: all of the backup replaces the old data, or none does,
    // even when the process is killed part-way (see changeAtomically).
    await changeAtomically(store, { replace: { scope } }, async (writer) => {
      let done = 0;
      const applied = await scanBackupFile(handle, path, {
        maxBytes: options.maxBytes,
        scope,
        onBatch: async (items) => {
          // Checked again, against the store as it is now: an id of another scope is refused.
          if (scope) await refuseForeignIds(store, items, scope);
          skippedEmbeddings += await writeItems(writer, items, keepEmbeddings);
          done += items.length;
          report?.(done, total, 'restoring');
        },
      });
      if (!sameManifest(checked, applied)) {
        throw invalid([{ field: path, message: 'the file changed while it was being restored' }]);
      }
    });
    return {
      restored: checked.counts,
      skippedEmbeddings,
      backup: { name: checked.manifest.name, createdAt: checked.manifest.createdAt },
      config: checked.config,
      ...(scope ? { scope: { ...scope } } : {}),
    };
  } finally {
    await handle.close();
  }
}
