/**
 * Keeping the index current while a door serves: a watch on the workspace folder that, once
 * the files have been quiet for `debounceMs`, brings the index up to date (only the files
 * whose hash changed are re-read; removed files leave). Built on node:fs `watch` with
 * `recursive: true` (chokidar is not among memoir's dependencies, and Node >= 20 watches
 * folders recursively on Linux, macOS and Windows). Nothing it does throws into the agent:
 * a failed run, or a watch the system ends, is an `error` event, and the watch goes on.
 */
import { type FSWatcher, watch } from 'node:fs';
import { sep } from 'node:path';
import { z } from 'zod';

/** Options of `memory.workspace.watch()`. */
export const workspaceWatchOptionsSchema = z
  .object({
    /** Quiet time after the last file event before the index is brought up to date, ms. Default 300. */
    debounceMs: z.number().int().min(0).max(600_000).default(300),
  })
  .strict();

/**
 * Options of `memory.workspace.watch()`.
 *
 * @group Workspace
 */
export type WorkspaceWatchOptions = z.input<typeof workspaceWatchOptionsSchema>;

/**
 * A running watch of the workspace.
 *
 * @group Workspace
 */
export interface WorkspaceWatch {
  /**
   * Resolves once no file event waits for its debounce and no index run is under way: what
   * the files said when it was called is in the index (unless a run failed: see `error`).
   */
  idle(): Promise<void>;
  /** Stop watching; resolves when a run under way has finished. Calling it again does nothing. */
  close(): Promise<void>;
}

/** What a watch needs from the workspace feature. */
export interface WatchTarget {
  /** The workspace root (absolute). */
  root: string;
  /** Bring the index up to date; `changed` lists the paths the file system named. */
  reindex(changed: string[]): Promise<void>;
  /** Report a failure (a run that failed, a watch the system ended); never throws. */
  fail(error: unknown): void;
}

/**
 * True when a file event at `path` (relative to the root, as the file system names it) may
 * change what the index holds: a Markdown file, or a folder (no extension: a whole folder
 * created, renamed or removed). Hidden entries — the index's own `.memory/`, `.git/`, editor
 * swap files — and other files never start a run.
 */
export function affectsIndex(path: string): boolean {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  if (parts.length === 0) return true;
  if (parts.some((part) => part.startsWith('.'))) return false;
  const last = parts[parts.length - 1]!;
  return last.toLowerCase().endsWith('.md') || !last.includes('.');
}

/**
 * Watch `target.root` and re-index after each burst of changes: a run starts `debounceMs`
 * after the last event (at the latest ten debounces, at least 2 s, after the first, so a
 * file written without pause is still picked up), one run at a time, another one after it
 * when events came in meanwhile.
 */
export function startWorkspaceWatch(target: WatchTarget, debounceMs: number): WorkspaceWatch {
  const maxWaitMs = Math.max(2000, debounceMs * 10);
  let watcher: FSWatcher | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstEventAt: number | undefined;
  let changed = new Set<string>();
  let running: Promise<void> | undefined;
  let closed = false;
  let waiters: Array<() => void> = [];

  const settle = () => {
    if (timer !== undefined || running !== undefined) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  const run = () => {
    timer = undefined;
    firstEventAt = undefined;
    if (closed) return settle();
    if (running !== undefined) return;
    const paths = [...changed].sort();
    changed = new Set();
    running = target
      .reindex(paths)
      .catch((error: unknown) => target.fail(error))
      .finally(() => {
        running = undefined;
        // Events that came in during the run get a run of their own.
        if (changed.size > 0 && !closed) arm();
        settle();
      });
  };

  const arm = () => {
    const now = Date.now();
    firstEventAt ??= now;
    if (timer !== undefined) clearTimeout(timer);
    const wait = Math.max(0, Math.min(debounceMs, firstEventAt + maxWaitMs - now));
    timer = setTimeout(run, wait);
    timer.unref?.();
  };

  const onEvent = (_type: string, filename: string | Buffer | null) => {
    try {
      const path = filename === null ? '' : String(filename).split(sep).join('/');
      if (!affectsIndex(path)) return;
      changed.add(path === '' ? '.' : path);
      arm();
    } catch (error) {
      target.fail(error);
    }
  };

  const start = () => {
    watcher = watch(target.root, { recursive: true, persistent: false }, onEvent);
    watcher.on('error', (error) => {
      // The folder went away or the system dropped the watch: say so, re-index (the items of
      // files that are gone leave), and keep watching if the folder can be watched again.
      target.fail(error);
      watcher?.close();
      watcher = undefined;
      if (closed) return;
      changed.add('.');
      arm();
      try {
        start();
      } catch (again) {
        target.fail(again);
      }
    });
  };
  start();

  return {
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        settle();
      }),
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      watcher?.close();
      watcher = undefined;
      await running;
      settle();
    },
  };
}
