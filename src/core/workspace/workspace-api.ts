import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { wrapError } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { withDirectoryLock } from '../shared/files/directory-lock.js';
import { ConfigError } from '../spec/errors.js';
import { confinedFolder } from '../utils/confined-path.js';
import { parseInput } from '../utils/validate.js';
import { indexWorkspace, type WorkspaceIndexReport } from '../workspace-format/workspace-index.js';
import {
  startWorkspaceWatch,
  type WorkspaceWatch,
  type WorkspaceWatchOptions,
  workspaceWatchOptionsSchema,
} from './workspace-watch.js';

const LOCK_CONTEXT = { component: 'workspace.index', field: 'workspace' } as const;

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Options of `memory.workspace.index()`. */
export const workspaceIndexOptionsSchema = z
  .object({
    /** Re-read every file, not only the ones whose content hash changed. Default false. */
    rebuild: z.boolean().optional(),
  })
  .strict();
/**
 * Options of `memory.workspace.index()`.
 *
 * @group Workspace
 */
export type WorkspaceIndexOptions = z.input<typeof workspaceIndexOptionsSchema>;

/**
 * The Markdown workspace a client indexes (`memory.md`, `memory/YYYY-MM-DD.md`, `bank/**`),
 * the source of truth its derived index is rebuilt from.
 *
 * @group Workspace
 */
export interface WorkspaceFacet {
  /** The workspace root (absolute), or undefined when the client was created without one. */
  readonly root: string | undefined;
  /**
   * Bring the index up to date with the files: only files whose content hash changed are
   * re-read, and items of deleted files or removed lines leave the index. Typed `## Retain`
   * bullets keep their kind, `@Name` entities and `O(c=…)` confidence; every other paragraph
   * or list item is indexed as plain text; each item cites `path#Lline`. A malformed line is
   * indexed as plain text and reported in `warnings` (file and line). Only files inside the
   * root are read: a symbolic link leading out of it (`memory.md`, `memory/`, `bank/` or any
   * file under them) is not followed, and a file over 2 MiB or 20,000 items is not read;
   * both are listed in `skipped` (and logged) while the rest of the workspace is indexed. A
   * file deleted while the run is under way counts as deleted. Rejects with a ConfigError
   * when the client has no workspace.
   *
   * @example
   * ```ts
   * const memory = createWorkspace({ root: '~/agent-workspace' });
   * const report = await memory.workspace.index();
   * for (const w of report.warnings) console.warn(`${w.file}:${w.line} ${w.message}`);
   * ```
   */
  index(options?: WorkspaceIndexOptions): Promise<WorkspaceIndexReport>;
  /**
   * Keep the index current while the client runs: watch the workspace folder and, once the
   * files have been quiet for `debounceMs` (default 300), bring the index up to date as
   * `index()` does — changed and new Markdown files re-read, removed ones leaving. Each run
   * emits `workspace:indexed`; a run that fails, or a watch the system ends, emits `error`
   * (operation `workspace.watch`) and the watch goes on: nothing throws into the agent.
   * Runs never overlap with each other or with `index()`. It does not index at once: call
   * `index()` after starting it. `close()` on the handle, or on the client, stops it.
   * Rejects (synchronously, with a ConfigError) without a workspace or when the root is not
   * a folder.
   *
   * @example
   * ```ts
   * const memory = createWorkspace({ root: '~/agent-workspace' });
   * const watch = memory.workspace.watch({ debounceMs: 500 });
   * await memory.workspace.index();
   * // … files edited by a person or the agent are recalled from now on …
   * await watch.close();
   * ```
   */
  watch(options?: WorkspaceWatchOptions): WorkspaceWatch;
}

/**
 * The workspace slice of a client.
 *
 * @group Workspace
 */
export interface WorkspaceApi {
  /** The Markdown workspace: see {@link WorkspaceFacet}. */
  readonly workspace: WorkspaceFacet;
}

/** The workspace feature over an engine; `root` is the validated `workspace` option. */
export function createWorkspaceApi(engine: MemoryEngine, settings: { root: string | undefined }): WorkspaceApi {
  const root = settings.root === undefined ? undefined : resolve(settings.root);
  const needRoot = (component: string): string => {
    if (root !== undefined) return root;
    throw new ConfigError('this client has no workspace', {
      component,
      field: 'workspace',
      suggestion: 'Create the client with createWorkspace({ root }) or createMemory({ workspace: dir }).',
      hint: { code: 'workspace' },
    });
  };
  // One index run at a time, whoever asks (a call, the watch, a reflect run, another process):
  // two runs over the same files would write and delete the same items in between each other.
  // The workspace's lock (`.memory/.lock`, the one reflect takes) orders them across processes
  // too, so a scheduled reflect waits for a re-index under way. A root that is gone is not
  // locked (taking the lock would create it again); its run only lets its items leave.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const locked = () => {
      if (root === undefined || !isFolder(root)) return work();
      let lock: string;
      try {
        lock = confinedFolder(root, ['.memory'], LOCK_CONTEXT);
      } catch (error) {
        // `.memory` leads out of the workspace: nothing is written there, not even the lock
        // (reflect refuses such a workspace). Indexing only reads the files: it goes on.
        if (ConfigError.isInstance(error)) return work();
        throw error;
      }
      return withDirectoryLock(lock, work, { component: 'workspace.index' });
    };
    const next = queue.then(locked, locked);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    workspace: {
      root,
      // Declared for the drain: the client runs it in engine.track, so close() waits for a run.
      ...drained<AsyncMembers<WorkspaceFacet>>({
        async index(optionsInput?: unknown) {
          const options = parseInput(workspaceIndexOptionsSchema, optionsInput ?? {}, 'workspace.index', 'options');
          const at = needRoot('workspace.index');
          return serial(() => indexWorkspace(engine, at, { rebuild: options.rebuild ?? false }));
        },
      }),
      watch(optionsInput?: unknown) {
        const options = parseInput(workspaceWatchOptionsSchema, optionsInput ?? {}, 'workspace.watch', 'options');
        const at = needRoot('workspace.watch');
        engine.assertOpen('workspace.watch');
        if (!isFolder(at))
          throw new ConfigError(`the workspace ${at} is not a folder`, {
            component: 'workspace.watch',
            field: 'workspace',
            suggestion: 'Create the folder (it may be empty), or point the workspace at an existing one.',
          });
        const handle = startWorkspaceWatch(
          {
            root: at,
            async reindex(changed) {
              if (engine.closed) return;
              const report = await engine.track('workspace.index', () =>
                serial(() => indexWorkspace(engine, at, { rebuild: false })),
              );
              engine.emit('workspace:indexed', {
                changed,
                changedFiles: report.changedFiles,
                removedFiles: report.removedFiles,
                indexed: report.indexed,
                removed: report.removed,
                skipped: report.skipped,
              });
            },
            fail(error) {
              // A run refused because the client is closing is no failure.
              if (engine.closed) return;
              engine.emit('error', { operation: 'workspace.watch', error: wrapError(error, 'workspace.watch') });
            },
          },
          options.debounceMs,
        );
        engine.onClose(() => void handle.close());
        return handle;
      },
    },
  };
}
