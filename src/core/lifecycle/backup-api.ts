import { z } from 'zod';
import { autoBackup } from '../backup/auto-backup.js';
import { type BackupInfo, clearStore, createBackup, type RestoreReport, restoreBackup } from '../backup/backup.js';
import {
  type BackupDescription,
  type BackupSummary,
  inspectBackupAt,
  listBackupSummaries,
  verifyBackupAt,
} from '../backup/backup-list.js';
import type { BackupCounts } from '../backup/backup-manifest.js';
import {
  exportRecords,
  type ImportLines,
  type ImportResult,
  importLinesSchema,
  importRecords,
} from '../backup/transfer.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { parseConfirm } from '../utils/common-schemas.js';
import { parseInput } from '../utils/validate.js';

/**
 * Getting data out and back in: backups, restore, clearing, and JSON Lines export and
 * import. A client created with a scope does all of it inside its scope only; an unscoped
 * client works on the whole store.
 *
 * @group Client
 */
export interface BackupApi {
  /**
   * Write a tar.gz of the store's data (a scoped client: its scope's) with a manifest of
   * checksums and counts into the backup directory (`<home>/backups` by default). Written
   * as a stream: memory stays bounded and the event loop keeps turning. Automatic backups
   * made before deleteSession, restore and clearAll are named `auto-…`; the newest 5 are kept.
   */
  backup(name?: string, options?: BackupCallOptions): Promise<BackupInfo>;
  /**
   * Replace the store's data (a scoped client: its scope's only) with a backup's. Refuses
   * without `{ confirm: true }`; checks the whole archive first (paths, entry types,
   * checksums, counts, every record; a scoped client also refuses anything outside its
   * scope) and rejects a hostile or damaged one without touching the current data, which
   * is itself backed up, and that backup verified, before being replaced.
   */
  restore(path: string, options: RestoreCallOptions): Promise<RestoreReport>;
  /**
   * Back up (and verify the backup), then delete every memory and record — a scoped
   * client: those of its scope. Refuses without `{ confirm: true }`.
   */
  clearAll(options: { confirm: boolean }): Promise<BackupCounts>;
  /**
   * The backups in the backup directory, newest first, each with the scope it covers
   * (`scope: null` is a backup of the whole store) and its counts, read from its manifest.
   * An unscoped client lists every backup, a file whose manifest cannot be read with its
   * `problem`; a scoped client lists only the backups within its scope, so it never learns
   * of another scope's. Touches no store, so it works while the store is damaged.
   */
  listBackups(): Promise<BackupSummary[]>;
  /**
   * Read the backup at `path` back completely and check it (entries, checksums, counts,
   * every record) without writing anything, and say what it covers and holds; a scoped
   * client refuses a backup holding anything outside its scope. Touches no store: this is
   * how a repair picks a backup before the damaged store is replaced.
   *
   * @throws ValidationError when the backup does not verify; NotFoundError when there is no file at `path`.
   */
  verifyBackup(path: string): Promise<BackupDescription>;
  /**
   * What the backup at `path` says it covers (`scope: null`: the whole store) and holds,
   * from its manifest alone: quick, and no check of the data (`verifyBackup` does that;
   * `restore` checks everything anyway). Touches no store.
   *
   * @throws ValidationError when it is not a memoir backup or its manifest is bad.
   */
  inspectBackup(path: string): Promise<BackupDescription>;
  /**
   * Every memory of the client's scope (with its embedding, metadata and content) and every
   * record of it, as JSON Lines: the format the CLI's `memoir export` writes.
   */
  export(): AsyncGenerator<string>;
  /**
   * Read JSON Lines written by `export()` back: lines (sync or async), or the whole file as
   * one string. Embeddings are kept when they came from this client's embedder; otherwise
   * memories are imported without them (run `reindex`). A scoped client refuses a line of
   * another scope, or one that would replace another scope's data, naming the line.
   *
   * All or nothing: a bad line anywhere rejects with a ValidationError naming it, and nothing
   * of the file is written; a process killed part-way leaves the store as before or with the
   * whole file. With `{ onInvalid: 'skip' }` bad lines are left out instead and the result
   * says which and why (`skippedLines`, `invalidLines`). The file is read once, as a stream.
   */
  import(lines: AsyncIterable<string> | Iterable<string>, options?: ImportCallOptions): Promise<ImportResult>;
}

/**
 * Options of {@link BackupApi.import}.
 *
 * @group Client
 */
export interface ImportCallOptions {
  /**
   * What a bad line does: `reject` (default) rejects the import and writes nothing; `skip`
   * leaves the line out and reports it in the result.
   */
  onInvalid?: 'reject' | 'skip';
}

/**
 * Options of {@link BackupApi.backup}.
 *
 * @group Client
 */
export interface BackupCallOptions {
  /** Called as the data is written: memories and records so far, and how many there are (a progress bar). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Options of {@link BackupApi.restore}.
 *
 * @group Client
 */
export interface RestoreCallOptions {
  /** Must be `true`: restoring replaces the current data. */
  confirm: boolean;
  /**
   * Called as the restore goes (a progress bar): items so far of how many, in each phase —
   * `checking` the archive, `backing up` the current data, `restoring` the archive's.
   */
  onProgress?: (done: number, total: number, phase: 'checking' | 'backing up' | 'restoring') => void;
}

type ProgressCallback = (...args: never[]) => void;
const progressSchema = z
  .custom<ProgressCallback>((value) => typeof value === 'function', { message: 'expected a function' })
  .optional();
const backupCallOptionsSchema = z.object({ onProgress: progressSchema }).strict();

// `onProgress` is checked here; the rest is the `{ confirm: true }` every destructive call takes.
function withoutProgress(input: unknown, component: string): { rest: unknown; onProgress?: ProgressCallback } {
  if (typeof input !== 'object' || input === null || !Object.hasOwn(input, 'onProgress')) return { rest: input };
  const { onProgress, ...rest } = input as Record<string, unknown>;
  return { rest, onProgress: parseInput(progressSchema, onProgress, component, 'options.onProgress') };
}

const importCallOptionsSchema = z.object({ onInvalid: z.enum(['reject', 'skip']).optional() }).strict();

/** The backup and transfer feature over an engine. */
export function createBackupApi(engine: MemoryEngine): BackupApi {
  const { store } = engine;
  return {
    ...drained<AsyncMembers<BackupApi>>({
      async backup(nameInput, optionsInput) {
        const name = parseInput(z.string().min(1).max(100).optional(), nameInput, 'backup', 'name');
        const { onProgress } = parseInput(backupCallOptionsSchema, optionsInput ?? {}, 'backup', 'options');
        await engine.ready('backup');
        return createBackup(store, {
          ...(onProgress ? { onProgress: onProgress as BackupCallOptions['onProgress'] } : {}),
          directory: engine.backupDirectory(),
          name,
          embedder: engine.identity(),
          scope: engine.scope,
          now: engine.clock.now,
        });
      },
      async restore(pathInput, optionsInput) {
        const path = parseInput(z.string().min(1), pathInput, 'restore', 'path');
        const { rest, onProgress } = withoutProgress(optionsInput, 'restore');
        const { confirm } = parseConfirm(rest, 'restore');
        const report = onProgress as RestoreCallOptions['onProgress'];
        await engine.ready('restore');
        return restoreBackup(store, path, {
          confirm,
          embedder: engine.identity(),
          scope: engine.scope,
          backupFirst: () =>
            autoBackup(engine, 'restore', report ? (done, total) => report(done, total, 'backing up') : undefined),
          ...(report ? { onProgress: report } : {}),
        });
      },
      async clearAll(optionsInput) {
        parseConfirm(optionsInput, 'clearAll');
        await engine.ready('clearAll');
        await autoBackup(engine, 'clear-all');
        return clearStore(store, { scope: engine.scope });
      },
      async listBackups() {
        return listBackupSummaries(engine.backupDirectory(), engine.scope);
      },
      async verifyBackup(pathInput) {
        const path = parseInput(z.string().min(1), pathInput, 'verifyBackup', 'path');
        return verifyBackupAt(path, engine.scope);
      },
      async inspectBackup(pathInput) {
        const path = parseInput(z.string().min(1), pathInput, 'inspectBackup', 'path');
        return inspectBackupAt(path);
      },
      async import(linesInput, optionsInput) {
        const lines: ImportLines = parseInput(importLinesSchema, linesInput, 'import', 'lines');
        const { onInvalid } = parseInput(importCallOptionsSchema, optionsInput ?? {}, 'import', 'options');
        await engine.ready('import');
        return importRecords(store, lines, { embedder: engine.identity(), scope: engine.scope, onInvalid });
      },
    }),
    // A stream the caller pulls, not one call: close() does not wait for a reader who may never finish.
    async *export() {
      await engine.ready('export');
      yield* exportRecords(store, { filter: { scope: engine.scope }, embedder: engine.identity() });
    },
  };
}
