import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// The procedure directory is shared: by the background queue, by other clients in this
// process, by other processes on the same home, and by a person with an editor. Writes are
// atomic (a temp file renamed over the target, so a reader sees the old file or the new one,
// never half of either), and every read-decide-write runs under one lock per directory.

const LOCK_FILE = '.lock';
// A lock older than this was left by a process that died holding it.
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

/** The folder holding earlier versions of each procedure: `<directory>/.history/<slug>/`. */
export const HISTORY_FOLDER = '.history';

/** A procedure file on disk. */
export interface FileSnapshot {
  /** `<slug>.md`'s slug. */
  slug: string;
  /** Absolute path. */
  path: string;
  /** The text as read. */
  text: string;
  /** Modification time, ISO 8601. */
  modifiedAt: string;
}

/** The path of `<slug>.md` in `directory`. */
export const fileOf = (directory: string, slug: string): string => join(directory, `${slug}.md`);

/** Every `*.md` file directly in `directory` (none when it does not exist), by slug. */
export async function readProcedureFiles(directory: string): Promise<FileSnapshot[]> {
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const snapshots: FileSnapshot[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.md') || name.startsWith('.')) continue;
    const snapshot = await readProcedureFile(directory, name.slice(0, -3));
    if (snapshot) snapshots.push(snapshot);
  }
  return snapshots;
}

/** One procedure file, or null when it does not exist (or is not a regular file). */
export async function readProcedureFile(directory: string, slug: string): Promise<FileSnapshot | null> {
  const path = fileOf(directory, slug);
  try {
    const info = await stat(path);
    if (!info.isFile()) return null;
    const text = await readFile(path, 'utf8');
    return { slug, path, text, modifiedAt: info.mtime.toISOString() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Write `text` to `path` atomically: a temp file beside it, flushed, then renamed over it. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Keep the current version of a file as `.history/<slug>/<stamp>-<hash>.md` before it is
 * replaced; the content hash keeps two versions of one instant apart.
 */
export async function keepHistory(directory: string, slug: string, stamp: string): Promise<string> {
  const folder = join(directory, HISTORY_FOLDER, slug);
  await mkdir(folder, { recursive: true });
  const text = await readFile(fileOf(directory, slug), 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 8);
  const target = join(folder, `${stamp.replace(/[:.]/g, '-')}-${hash}.md`);
  await writeFileAtomic(target, text);
  return target;
}

/** Remove a procedure file; false when it was already gone. */
export async function removeProcedureFile(directory: string, slug: string): Promise<boolean> {
  try {
    await unlink(fileOf(directory, slug));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

const inProcess = new Map<string, Promise<unknown>>();

async function acquireLockFile(directory: string): Promise<() => Promise<void>> {
  const path = join(directory, LOCK_FILE);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: 'wx' });
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const info = await stat(path).catch(() => null);
    if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${path} is held by another process; remove it if no memoir process is running`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Run `work` holding the directory's lock: one holder per directory in this process (a
 * promise chain) and across processes (an exclusive `.lock` file; one left by a dead process
 * is taken over after 30 s).
 */
export async function withDirectoryLock<T>(directory: string, work: () => Promise<T>): Promise<T> {
  const previous = inProcess.get(directory) ?? Promise.resolve();
  const run = previous.then(async () => {
    await mkdir(directory, { recursive: true });
    const release = await acquireLockFile(directory);
    try {
      return await work();
    } finally {
      await release();
    }
  });
  const settled = run.catch(() => undefined);
  inProcess.set(directory, settled);
  void settled.then(() => {
    if (inProcess.get(directory) === settled) inProcess.delete(directory);
  });
  return run;
}
