/**
 * One holder at a time per directory: a promise chain within this process and an exclusive
 * `.lock` file across processes. The lock file says who holds it (pid, host, a token), and
 * its holder touches it while it works, so a lock left by a process that died is recognised
 * and taken over: at once when its pid is gone on this host, otherwise once it went stale.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '../../spec/errors.js';

/** The lock file's name in its directory. */
export const LOCK_FILE = '.lock';
/** A lock its holder has not touched for this long was left by a process that died (ms). */
export const STALE_LOCK_MS = 30_000;
// The holder touches the lock this often, well within STALE_LOCK_MS.
const HEARTBEAT_MS = 5_000;
/** How long a caller waits for a lock held by a live process before giving up (ms). */
export const LOCK_WAIT_MS = 15_000;

/** Options of {@link withDirectoryLock}. */
export interface DirectoryLockOptions {
  /** The component named in the error when the lock cannot be had, e.g. `procedures`. Default `lock`. */
  component?: string;
  /** How long to wait for a live holder, ms. Default {@link LOCK_WAIT_MS}. */
  waitMs?: number;
}

/** Who holds a lock, as its file says. */
interface Holder {
  pid: number | undefined;
  host: string | undefined;
  token: string | undefined;
  since: string | undefined;
}

// The tokens of the locks this process holds, shared by every copy of memoir loaded in it
// (ESM and CJS side by side), so one copy never takes another's lock for a dead process's.
const TOKENS = Symbol.for('memoir.directoryLockTokens');
function sharedTokens(): Set<string> {
  const global = globalThis as Record<symbol, unknown>;
  const existing = global[TOKENS];
  if (existing instanceof Set) return existing as Set<string>;
  const tokens = new Set<string>();
  global[TOKENS] = tokens;
  return tokens;
}
const ownTokens = sharedTokens();

function parseHolder(text: string): Holder {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    return {
      pid: typeof value.pid === 'number' ? value.pid : undefined,
      host: typeof value.host === 'string' ? value.host : undefined,
      token: typeof value.token === 'string' ? value.token : undefined,
      since: typeof value.since === 'string' ? value.since : undefined,
    };
  } catch {
    // The older form: the pid alone on the first line.
    const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
    return {
      pid: Number.isInteger(pid) && pid > 0 ? pid : undefined,
      host: undefined,
      token: undefined,
      since: undefined,
    };
  }
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Why a lock held by `holder` (last touched at `touchedMs`) no longer holds, or undefined while it does. */
function staleness(holder: Holder, touchedMs: number, now: number): string | undefined {
  if (holder.host === hostname() && holder.pid !== undefined) {
    if (holder.pid === process.pid && holder.token !== undefined && !ownTokens.has(holder.token))
      return 'it was left by an earlier process with this pid';
    if (holder.pid !== process.pid && processIsGone(holder.pid)) return `process ${holder.pid} is gone`;
  }
  if (now - touchedMs > STALE_LOCK_MS) return `it was not touched for ${Math.round((now - touchedMs) / 1000)} s`;
  return undefined;
}

/**
 * Move a stale lock out of the way, unless it changed since it was judged stale (another
 * waiter took it over meanwhile): then it is put back.
 */
async function takeOver(path: string, judged: string): Promise<void> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => judged);
  // link() fails when a new lock is in place already; then that one stands.
  if (moved !== judged) await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true });
}

async function acquireLockFile(directory: string, options: DirectoryLockOptions): Promise<() => Promise<void>> {
  const path = join(directory, LOCK_FILE);
  const token = randomBytes(8).toString('hex');
  const content = `${JSON.stringify({ pid: process.pid, host: hostname(), token, since: new Date().toISOString() })}\n`;
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS);
  let holder: Holder | undefined;
  for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
    try {
      // 'wx' creates the file or fails: it never follows a link put where the lock goes.
      await writeFile(path, content, { flag: 'wx' });
      ownTokens.add(token);
      const heartbeat = setInterval(() => {
        const now = new Date();
        void utimes(path, now, now).catch(() => undefined);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return async () => {
        clearInterval(heartbeat);
        ownTokens.delete(token);
        // Remove the lock only while it is still ours (a holder that stalled may have lost it).
        const current = await readFile(path, 'utf8').catch(() => '');
        if (current === content) await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const [text, info] = await Promise.all([
      readFile(path, 'utf8').catch(() => undefined),
      stat(path).catch(() => undefined),
    ]);
    if (text !== undefined && info !== undefined) {
      holder = parseHolder(text);
      if (staleness(holder, info.mtimeMs, Date.now()) !== undefined) {
        await takeOver(path, text);
        continue;
      }
    }
    if (Date.now() > deadline) {
      const who =
        holder?.pid === undefined
          ? 'another process'
          : `process ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}${holder.since ? ` since ${holder.since}` : ''}`;
      throw new StoreError(`${path} is held by ${who}; gave up after ${options.waitMs ?? LOCK_WAIT_MS} ms`, {
        component: options.component ?? 'lock',
        suggestion: `Wait for that memoir process to finish and try again. If no memoir process is running, delete ${path}.`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

const inProcess = new Map<string, Promise<unknown>>();

/**
 * Run `work` holding the directory's lock: one holder per directory in this process (a
 * promise chain) and across processes (an exclusive `.lock` file naming its holder). A lock
 * left by a process that died is taken over (at once when its pid is gone on this host,
 * after {@link STALE_LOCK_MS} otherwise); a lock a live process keeps longer than `waitMs`
 * rejects with a StoreError naming the lock file and what to do.
 */
export async function withDirectoryLock<T>(
  directory: string,
  work: () => Promise<T>,
  options: DirectoryLockOptions = {},
): Promise<T> {
  const previous = inProcess.get(directory) ?? Promise.resolve();
  const run = previous.then(async () => {
    await mkdir(directory, { recursive: true });
    const release = await acquireLockFile(directory, options);
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
