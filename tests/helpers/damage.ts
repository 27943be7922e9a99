import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmdirSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '../../src/index.js';
import { quiet } from './stores.js';

// Ways to damage a real SQLite file, a store worth damaging, and a read-only directory
// that holds even for root.

const PAGE = 4096;

/** Write `length` bytes of `byte` at `offset`, in place. */
export function overwrite(path: string, offset: number, length: number, byte = 0x5a): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(length, byte), 0, length, offset);
  } finally {
    closeSync(fd);
  }
}

/** The damages the tests apply, by name. */
export const DAMAGES: Record<string, (path: string) => void> = {
  'truncated to half': (path) => truncateSync(path, Math.floor(statSync(path).size / 2)),
  'eight pages in the middle overwritten': (path) =>
    overwrite(path, Math.floor(statSync(path).size / 2 / PAGE) * PAGE, 8 * PAGE),
  'the header overwritten': (path) => overwrite(path, 0, 100),
};

/** SHA-256 of a file and its -wal, to prove nothing was written. */
export function fingerprint(path: string): string {
  const hash = createHash('sha256');
  for (const file of [path, `${path}-wal`]) if (existsSync(file)) hash.update(readFileSync(file));
  return hash.digest('hex');
}

/** Contents the fixture store holds. */
export const FIXTURE = { memories: 400, sessions: 4, entities: 7 } as const;

/**
 * A closed store under `<dir>/<name>/memoir.sqlite` with {@link FIXTURE}'s memories (long
 * enough to fill a few hundred pages), their sessions and entities.
 */
export async function buildStore(dir: string, name = 'home'): Promise<string> {
  const home = join(dir, name);
  mkdirSync(home, { recursive: true });
  const memory = createMemory({ home, logger: quiet });
  const inputs = Array.from({ length: FIXTURE.memories }, (_, index) => ({
    content: `Note ${index}: the lighthouse keeper logged ship ${index % 31}. ${'More words about the sea. '.repeat(index % 90)}`,
    entities: [`Keeper${index % FIXTURE.entities}`],
    sessionId: `session-${index % FIXTURE.sessions}`,
  }));
  for (let start = 0; start < inputs.length; start += 100) await memory.retain(inputs.slice(start, start + 100));
  await memory.close();
  return home;
}

/** Copy `<from>/memoir.sqlite` into a new home directory under `dir`. */
export function copyHome(from: string, dir: string): string {
  const home = mkdtempSync(join(dir, 'copy-'));
  copyFileSync(join(from, 'memoir.sqlite'), join(home, 'memoir.sqlite'));
  return home;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * Make `dir` and the files in it unwritable, in a way that holds for root too: the
 * immutable attribute (chattr +i) when running as root, permissions otherwise. Returns
 * the undo, or null when this machine cannot do it (then skip the test).
 */
export function makeReadOnly(dir: string, files: readonly string[]): (() => void) | null {
  try {
    if (isRoot()) {
      execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    } else {
      for (const file of files) chmodSync(file, 0o444);
      chmodSync(dir, 0o555);
    }
    accessSync(dir, constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM' || (error as NodeJS.ErrnoException).code === 'EACCES') {
      return () => {
        if (isRoot()) execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
        else chmodSync(dir, 0o755);
      };
    }
    return null;
  }
  // access() said writable: the attribute did not take (e.g. tmpfs without it).
  if (isRoot()) execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  else chmodSync(dir, 0o755);
  return null;
}

/** Whether {@link makeReadOnly} works here (chattr on this file system when root). */
export function canMakeReadOnly(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'memoir-readonly-probe-'));
  const undo = makeReadOnly(probe, []);
  undo?.();
  rmdirSync(probe);
  return undo !== null;
}
