/**
 * Keeping the index current while a door serves: a watch on the workspace folder that, once
 * the files have been quiet for `debounceMs`, brings the index up to date (only the files
 * whose hash changed are re-read; removed files leave). Built on node:fs `watch` with
 * `recursive: true` (chokidar is not among memoir's dependencies, and Node >= 20 watches
 * folders recursively on Linux, macOS and Windows). Nothing it does throws into the agent:
 * a failed run, or a watch the system ends, is an `error` event, and the watch goes on.
 *
 * Under hostile change: every run is a full `index()` pass, which checks confinement file by
 * file as it reads (a file swapped for a link out of the workspace is skipped and reported,
 * its items leave), refuses oversized files, and takes a file become a folder as a deletion; a
 * flood of events is one set of paths (at most MAX_CHANGED, then "everything") and one run per
 * debounce; a root folder deleted and created again is watched again once it is back; and a
 * look-over of the folder every ten debounces (at least 2 s) catches what the system's watch
 * did not report.
 */
import { type FSWatcher, lstatSync, readdirSync, statSync, watch } from 'node:fs';
import { join, sep } from 'node:path';
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

/** Paths a run remembers by name; past this many, the run is told "everything" ('.'). */
const MAX_CHANGED = 1000;
/** How often a watch whose root folder is gone looks for it to come back, ms. */
const ROOT_POLL_MS = 500;
/** Entries a look-over reads at most; past them the look-over sees no change it cannot name. */
const MAX_LOOK_ENTRIES = 20_000;

/**
 * What the folder holds, in short: each Markdown file and folder (hidden ones left out, links
 * not followed) with its kind, size and change time. Two look-overs that differ mean a change
 * the system's watch may not have reported: Node's recursive watch on Linux missed a file
 * replaced by a folder of the same name. Undefined when the root is not a folder.
 */
function lookOver(root: string): string | undefined {
  if (folderIdentity(root) === undefined) return undefined;
  const parts: string[] = [];
  const walk = (folder: string, relative: string) => {
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (parts.length >= MAX_LOOK_ENTRIES) return;
      const path = relative === '' ? name : `${relative}/${name}`;
      if (!affectsIndex(path)) continue;
      try {
        const info = lstatSync(join(folder, name));
        const kind = info.isSymbolicLink() ? 'l' : info.isDirectory() ? 'd' : 'f';
        parts.push(`${path}|${kind}|${info.size}|${info.mtimeMs}`);
        if (kind === 'd') walk(join(folder, name), path);
      } catch {
        // Gone meanwhile: the next look-over sees it gone.
      }
    }
  };
  walk(root, '');
  return parts.join('\n');
}

/** The root folder's identity (device and inode), or undefined when it is not a folder now. */
function folderIdentity(path: string): string | undefined {
  try {
    const info = statSync(path);
    return info.isDirectory() ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
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
  let watched: string | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  // The folder as the last run left it; a look-over now and then compares (see lookOver).
  let lastLook: string | undefined;
  const lookEveryMs = Math.max(2000, debounceMs * 10);

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
    lastLook = lookOver(target.root);
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

  const note = (path: string) => {
    if (changed.size >= MAX_CHANGED) changed = new Set(['.']);
    else changed.add(path);
  };

  const onEvent = (_type: string, filename: string | Buffer | null) => {
    try {
      const path = filename === null ? '' : String(filename).split(sep).join('/');
      // Hidden entries (the index's own busy `.memory/`) neither start a run nor cost a look.
      if (!affectsIndex(path)) return;
      // The root itself removed or replaced: its old watch sees nothing of the new folder.
      if (folderIdentity(target.root) !== watched) return rewatch();
      note(path === '' ? '.' : path);
      arm();
    } catch (error) {
      target.fail(error);
    }
  };

  // Watch the root again: now when it is a folder, else once it is one again (polled, as there
  // is nothing left to watch). Either way a run brings the index up to date (items of files
  // that are gone leave).
  const rewatch = () => {
    watcher?.close();
    watcher = undefined;
    if (closed) return;
    note('.');
    arm();
    if (folderIdentity(target.root) !== undefined) {
      try {
        start();
        return;
      } catch (error) {
        // Gone again between the look and the watch: wait for it below.
        target.fail(error);
      }
    }
    if (poll !== undefined) return;
    poll = setInterval(() => {
      if (closed || folderIdentity(target.root) === undefined) return;
      clearInterval(poll);
      poll = undefined;
      rewatch();
    }, ROOT_POLL_MS);
    poll.unref?.();
  };

  const start = () => {
    watched = folderIdentity(target.root);
    watcher = watch(target.root, { recursive: true, persistent: false }, onEvent);
    watcher.on('error', (error) => {
      // The folder went away or the system dropped the watch: say so, re-index (the items of
      // files that are gone leave), and keep watching once the folder can be watched again.
      target.fail(error);
      rewatch();
    });
  };
  start();
  lastLook = lookOver(target.root);
  const looking = setInterval(() => {
    if (closed || running !== undefined || timer !== undefined || poll !== undefined) return;
    try {
      const now = lookOver(target.root);
      if (now === lastLook) return;
      lastLook = now;
      note('.');
      arm();
    } catch (error) {
      target.fail(error);
    }
  }, lookEveryMs);
  looking.unref?.();

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
      if (poll !== undefined) clearInterval(poll);
      poll = undefined;
      clearInterval(looking);
      watcher?.close();
      watcher = undefined;
      await running;
      settle();
    },
  };
}
