/**
 * Reading and writing inside one directory (a workspace, the procedure directory) without
 * ever leaving it: a symbolic link that points outside is not followed, for reading or for
 * writing, and a file too big to hold in memory is refused before it is read. A link that
 * stays inside the directory is followed.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { ConfigError } from '../spec/errors.js';

/** True when `child` is `parent` or lies under it (both absolute, both real paths). */
export function isWithin(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/** The real path of `directory` (links resolved), creating it first when it does not exist. */
export function realDirectory(directory: string): string {
  mkdirSync(directory, { recursive: true });
  return realpathSync(directory);
}

/** The real path of `directory`, or undefined when it does not exist. */
export function realDirectoryIfAny(directory: string): string | undefined {
  try {
    return realpathSync(directory);
  } catch {
    return undefined;
  }
}

/** Why a file was not read. */
export type RefusalKind = 'outside' | 'too-big' | 'not-a-file' | 'unreadable';

/** What reading a file inside a directory gave. */
export type ConfinedRead =
  | {
      /** The file was read. */
      status: 'ok';
      /** Its text (UTF-8). */
      text: string;
      /** Its modification time, ms. */
      modifiedMs: number;
    }
  | {
      /** There is no such file (or it vanished while being read). */
      status: 'missing';
    }
  | {
      /** The file exists but was not read. */
      status: 'refused';
      /** Why, as a kind. */
      kind: RefusalKind;
      /** Why, in words: "a symbolic link to /etc/passwd, outside /home/ann/ws". */
      reason: string;
    };

const GONE = new Set(['ENOENT', 'ENOTDIR']);

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function refused(kind: RefusalKind, reason: string): ConfinedRead {
  return { status: 'refused', kind, reason };
}

// Read at most `limit` + 1 bytes, so a file that grew past the limit after fstat is caught too.
function readBounded(fd: number, limit: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - total));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    total += read;
    if (total > limit) return undefined;
  }
  return Buffer.concat(chunks, total);
}

/**
 * Read `path` as UTF-8 when it is a regular file whose real path lies inside `realRoot`
 * and is at most `maxBytes` long. A file that does not exist, or vanished meanwhile, is
 * `missing`; a link leaving the directory, a file over the limit, a directory, a FIFO or a
 * file the process may not read is `refused` with the reason. Never throws.
 */
export function readConfined(realRoot: string, path: string, maxBytes: number): ConfinedRead {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    if (GONE.has(codeOf(error) ?? '')) return { status: 'missing' };
    return refused('unreadable', `cannot be resolved (${codeOf(error) ?? String(error)})`);
  }
  if (!isWithin(realRoot, real)) return refused('outside', `is a symbolic link to ${real}, outside ${realRoot}`);
  let fd: number;
  try {
    // Non-blocking, so a FIFO put where a file was expected cannot hang the read.
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (GONE.has(codeOf(error) ?? '')) return { status: 'missing' };
    return refused('unreadable', `cannot be opened (${codeOf(error) ?? String(error)})`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return refused('not-a-file', 'is not a regular file');
    if (info.size > maxBytes) return refused('too-big', `is ${info.size} bytes, over the limit of ${maxBytes} bytes`);
    const bytes = readBounded(fd, maxBytes);
    if (bytes === undefined) return refused('too-big', `grew past the limit of ${maxBytes} bytes while being read`);
    return { status: 'ok', text: bytes.toString('utf8'), modifiedMs: info.mtimeMs };
  } catch (error) {
    if (GONE.has(codeOf(error) ?? '')) return { status: 'missing' };
    return refused('unreadable', `cannot be read (${codeOf(error) ?? String(error)})`);
  } finally {
    closeSync(fd);
  }
}

/** Who asks, for the error a refused write raises. */
export interface ConfinementContext {
  /** The component named in the error, e.g. `reflect`. */
  component: string;
  /** The setting that names the directory, e.g. `workspace`. */
  field: string;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (GONE.has(codeOf(error) ?? '')) return undefined;
    throw error;
  }
}

function assertSegment(segment: string, context: ConfinementContext): void {
  if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment))
    throw new ConfigError(`"${segment}" is not a file name (a path segment without separators)`, {
      component: context.component,
      field: context.field,
    });
}

function outside(path: string, real: string, realRoot: string, context: ConfinementContext): ConfigError {
  return new ConfigError(
    `${path} is a symbolic link to ${real}, outside ${realRoot}; memoir does not write outside its directory`,
    {
      component: context.component,
      field: context.field,
      suggestion: `Replace the link with a real folder or file inside ${realRoot}, or point ${context.field} at the folder the link leads to.`,
    },
  );
}

// The real path `path` leads to: itself, or the target of a link that stays inside.
function followInside(path: string, info: Stats, realRoot: string, context: ConfinementContext): string {
  if (!info.isSymbolicLink()) return path;
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    throw new ConfigError(`${path} is a symbolic link that leads nowhere (${codeOf(error) ?? String(error)})`, {
      component: context.component,
      field: context.field,
      suggestion: 'Remove the broken link, or make it point at a file inside the directory.',
    });
  }
  if (!isWithin(realRoot, real)) throw outside(path, real, realRoot, context);
  return real;
}

function walk(root: string, segments: readonly string[], context: ConfinementContext, lastIsFolder: boolean): string {
  const realRoot = realDirectory(root);
  let current = realRoot;
  for (const [index, segment] of segments.entries()) {
    assertSegment(segment, context);
    const path = join(current, segment);
    const wantFile = index === segments.length - 1 && !lastIsFolder;
    let info = lstatOrUndefined(path);
    if (info === undefined) {
      if (wantFile) return path;
      try {
        mkdirSync(path);
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw error;
      }
      info = lstatSync(path);
    }
    const real = followInside(path, info, realRoot, context);
    const isFolder = info.isSymbolicLink() ? lstatSync(real).isDirectory() : info.isDirectory();
    if (wantFile) {
      if (isFolder)
        throw new ConfigError(`${path} is a folder, where memoir writes a file`, {
          component: context.component,
          field: context.field,
        });
      return real;
    }
    if (!isFolder)
      throw new ConfigError(`${path} is a file, where memoir needs a folder`, {
        component: context.component,
        field: context.field,
      });
    current = real;
  }
  return current;
}

/**
 * The path to write the file `segments` names under `root` (each segment one file name, as
 * `safeFileName` makes them): missing folders are created one by one, a folder or file
 * that is a link leaving `root` is refused with a ConfigError naming it, and a link that
 * stays inside gives the path it leads to (so the link itself is kept). The root itself may
 * be a link: it is the directory the caller configured.
 */
export function confinedWritePath(root: string, segments: readonly string[], context: ConfinementContext): string {
  return walk(root, segments, context, false);
}

/** Like {@link confinedWritePath}, for a folder: every segment is created when missing, and its real path returned. */
export function confinedFolder(root: string, segments: readonly string[], context: ConfinementContext): string {
  return walk(root, segments, context, true);
}
