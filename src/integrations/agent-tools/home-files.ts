/**
 * Files a model may name. A door a model drives never takes a path: the file tools take a
 * plain file name and work only in the memoir home's own folders (`<home>/exports`,
 * `<home>/backups`), which must be real folders inside the home, not links out of it. A file
 * is written to a temporary file in the same folder and renamed into place, so a failed
 * write (a full disk, an error mid-stream) leaves the file that was there untouched and no
 * partial file behind. Nothing outside the home is read, written, created or deleted.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, link, lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ConfigError, MemoirError, StoreError, ValidationError } from '../../core/spec/errors.js';

/** The folder of the home `memory_export` writes into. */
export const EXPORTS_FOLDER = 'exports';
/** The folder of the home backups live in (`createMemory`'s default backup directory). */
export const BACKUPS_FOLDER = 'backups';
/** Longest file name a tool accepts, in characters. */
export const MAX_FILE_NAME_CHARS = 160;
// Bytes, leaving room in the 255-byte limit of common file systems for an added extension and the temporary file's affixes.
const MAX_FILE_NAME_BYTES = 200;
// What a tool may add to a checked name (an extension such as `.jsonl`).
const ADDED_CHARS = 16;
// Letters and digits first (no dot, dash or space: no hidden files, no options, no `.`/`..`), then also `.`, `_`, `-` and spaces.
const FILE_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._ -]*$/u;
// Names Windows reserves for devices, whatever the extension.
const DEVICE_NAME = /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\..*)?$/i;

/**
 * What is wrong with a file name a model gave, or undefined when it is a plain name:
 * letters, digits, `.`, `_`, `-` and spaces, starting with a letter or digit, at most
 * {@link MAX_FILE_NAME_CHARS} characters, no path separator, no `..`, no NUL, no hidden
 * (dot) name, no device name.
 *
 * @param name - The name as given.
 * @param maxChars - The longest name accepted; default {@link MAX_FILE_NAME_CHARS}.
 * @returns The problem, in words.
 */
export function fileNameProblem(name: string, maxChars = MAX_FILE_NAME_CHARS): string | undefined {
  if (name.length === 0) return 'expected a file name, e.g. "memories"';
  if (name.includes('\0')) return 'expected a file name without NUL characters';
  if (name.includes('/') || name.includes('\\') || name.includes(sep)) {
    return 'expected a plain file name, not a path: files are written only into the memoir home’s own folder';
  }
  if (name.startsWith('.')) return 'expected a file name that does not start with "." (no hidden files, no "..")';
  if (
    name.length > maxChars ||
    Buffer.byteLength(name, 'utf8') > MAX_FILE_NAME_BYTES + maxChars - MAX_FILE_NAME_CHARS
  ) {
    return `expected at most ${maxChars} characters`;
  }
  if (!FILE_NAME.test(name) || name.endsWith(' ') || name.endsWith('.')) {
    return 'expected letters, digits, ".", "_", "-" and spaces only, starting with a letter or digit';
  }
  if (DEVICE_NAME.test(name)) return 'expected a file name other than a device name (con, nul, com1, …)';
  return undefined;
}

function invalid(tool: string, field: string, message: string, suggestion: string): ValidationError {
  return new ValidationError([{ field, message }], { component: tool, suggestion });
}

/**
 * The home's folder `name` (`exports`, `backups`), checked to be a real folder directly in
 * the home: not a symbolic link, not a file. Created (that folder only) when `create` is set
 * and it is missing.
 *
 * @param tool - The tool asking, for errors.
 * @param home - The memoir home, from the tool context; undefined refuses.
 * @param name - The folder's name in the home.
 * @param create - Make the folder when it is missing.
 * @returns The folder's real absolute path.
 */
export async function homeFolder(
  tool: string,
  home: string | undefined,
  name: string,
  create: boolean,
): Promise<string> {
  if (home === undefined) {
    throw new ConfigError(`${tool} needs the memoir home, to keep its files inside it`, {
      component: tool,
      suggestion:
        'The host passes it: createMcpServer({ client, home }) or callAgentTool(tool, client, args, { home }).',
    });
  }
  if (create) await mkdir(home, { recursive: true });
  const realHome = await realpath(home);
  const folder = join(realHome, name);
  let stats = await lstat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined && create) {
    await mkdir(folder, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    stats = await lstat(folder);
  }
  if (stats === undefined) return folder; // nothing there yet: reading from it finds nothing
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw new ConfigError(
      `${folder} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}: memoir keeps these files only in a real folder inside the home`,
      { component: tool, suggestion: `Move ${folder} aside; memoir makes the folder again.` },
    );
  }
  const real = await realpath(folder);
  if (relative(realHome, real) !== name) {
    throw new ConfigError(`${folder} leads outside the memoir home`, { component: tool });
  }
  return real;
}

/**
 * A file of the folder by the name a model gave: the path, refused unless it is a regular
 * file (a link, even to a file inside the home, is refused, and so is a folder).
 *
 * @param tool - The tool asking, for errors.
 * @param field - The argument that named it.
 * @param folder - From {@link homeFolder}.
 * @param name - The file name, checked with {@link fileNameProblem}.
 * @returns The file's path and whether it exists.
 */
export async function fileInFolder(
  tool: string,
  field: string,
  folder: string,
  name: string,
): Promise<{ path: string; exists: boolean }> {
  // Room for what the tool added (an extension) to a name checked already.
  const problem = fileNameProblem(name, MAX_FILE_NAME_CHARS + ADDED_CHARS);
  if (problem) throw invalid(tool, field, problem, `Give a plain file name and call ${tool} again.`);
  const path = join(folder, name);
  const stats = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined) return { path, exists: false };
  if (!stats.isFile()) {
    const what = stats.isSymbolicLink() ? 'a symbolic link' : stats.isDirectory() ? 'a folder' : 'not a regular file';
    throw invalid(
      tool,
      field,
      `${name} in ${folder} is ${what}; memoir reads and writes only regular files there`,
      `Choose another name and call ${tool} again.`,
    );
  }
  return { path, exists: true };
}

/** Where {@link writeFileAtomically}'s writer puts text. */
export interface TextSink {
  /** Append text (buffered; written in large blocks). */
  write(text: string): Promise<void>;
}

const BLOCK_CHARS = 1 << 20;

async function writeAll(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Write a file of `folder` all at once or not at all: into a new temporary file next to it
 * (exclusive create, never through a link), flushed to disk, then moved into place. Without
 * `overwrite`, an existing file of that name is refused (atomically: the temporary file is
 * linked to the name, which fails when the name is taken); with it, the old file is replaced.
 * On any failure the temporary file is removed and the file of that name is as it was.
 *
 * @param tool - The tool writing, for errors.
 * @param field - The argument that named the file.
 * @param target - The file's path, from {@link fileInFolder}.
 * @param overwrite - Replace an existing file of that name.
 * @param produce - Writes the content into the sink.
 * @returns What `produce` returned.
 */
export async function writeFileAtomically<T>(
  tool: string,
  field: string,
  target: { path: string; exists: boolean },
  overwrite: boolean,
  produce: (sink: TextSink) => Promise<T>,
): Promise<T> {
  const name = target.path.slice(target.path.lastIndexOf(sep) + 1);
  if (target.exists && !overwrite) {
    throw invalid(
      tool,
      field,
      `a file named ${name} exists already`,
      `Choose another name, or call ${tool} again with overwrite: true to replace it.`,
    );
  }
  const folder = target.path.slice(0, target.path.lastIndexOf(sep));
  const temporary = join(folder, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    const file = handle;
    let pending = '';
    const result = await produce({
      async write(text) {
        pending += text;
        if (pending.length >= BLOCK_CHARS) {
          const block = pending;
          pending = '';
          await writeAll(file, block);
        }
      },
    });
    await writeAll(file, pending);
    await file.sync();
    await file.close();
    handle = undefined;
    if (overwrite) {
      // A link or folder put there meanwhile is refused, never replaced or followed.
      await fileInFolder(tool, field, folder, name);
      await rename(temporary, target.path);
    } else {
      await link(temporary, target.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') {
          throw invalid(
            tool,
            field,
            `a file named ${name} exists already`,
            `Choose another name and call ${tool} again.`,
          );
        }
        throw error;
      });
      await unlink(temporary);
    }
    await syncFolder(folder);
    return result;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    if (MemoirError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError(
      `could not write ${name}: ${reason}; nothing was written and any file of that name is unchanged`,
      {
        component: tool,
        cause: error,
        suggestion: 'Free some disk space or check the folder’s permissions, then call again.',
      },
    );
  }
}

// The rename is durable only once the folder itself is flushed; some file systems refuse, which is harmless.
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY).catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close().catch(() => undefined);
}
