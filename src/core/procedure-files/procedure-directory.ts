import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../shared/files/atomic-write.js';
import { confinedFolder, readConfined, realDirectoryIfAny } from '../utils/confined-path.js';

// The procedure directory is shared: by the background queue, by other clients in this
// process, by other processes on the same home, and by a person with an editor. Writes are
// atomic (atomic-write.ts), and every read-decide-write runs under one lock per directory
// (directory-lock.ts). Reads stay inside the directory: a procedure file that is a link
// leading out of it is not read, and a file too big to be a procedure is not read either.

/** The largest procedure file read, bytes (1 MiB); a bigger one is reported as not readable. */
export const MAX_PROCEDURE_FILE_BYTES = 1024 * 1024;

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

/** A file of the directory that was not read, and why. */
export interface RefusedProcedureFile {
  /** Absolute path. */
  path: string;
  /** Why, e.g. "is a symbolic link to /etc/passwd, outside /home/ann/procedures". */
  reason: string;
}

type EntryRead = { snapshot: FileSnapshot } | { refused: RefusedProcedureFile } | null;

function readEntry(realDirectory: string | undefined, directory: string, slug: string): EntryRead {
  if (realDirectory === undefined) return null;
  const path = fileOf(directory, slug);
  const read = readConfined(realDirectory, path, MAX_PROCEDURE_FILE_BYTES);
  if (read.status === 'missing') return null;
  // A directory named like a procedure is not one, and not worth a report.
  if (read.status === 'refused' && read.kind === 'not-a-file') return null;
  if (read.status === 'refused') return { refused: { path, reason: read.reason } };
  return { snapshot: { slug, path, text: read.text, modifiedAt: new Date(read.modifiedMs).toISOString() } };
}

/**
 * Every `*.md` file directly in `directory` (none when it does not exist), by slug, and the
 * ones that were not read: links leading out of the directory, files over
 * {@link MAX_PROCEDURE_FILE_BYTES}, files the process may not read.
 */
export async function readProcedureDirectory(
  directory: string,
): Promise<{ snapshots: FileSnapshot[]; refused: RefusedProcedureFile[] }> {
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [] as string[];
    throw error;
  });
  const realDirectory = realDirectoryIfAny(directory);
  const snapshots: FileSnapshot[] = [];
  const refused: RefusedProcedureFile[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.md') || name.startsWith('.')) continue;
    const entry = readEntry(realDirectory, directory, name.slice(0, -3));
    if (entry === null) continue;
    if ('snapshot' in entry) snapshots.push(entry.snapshot);
    else refused.push(entry.refused);
  }
  return { snapshots, refused };
}

/** Every readable `*.md` file directly in `directory` (none when it does not exist), by slug. */
export async function readProcedureFiles(directory: string): Promise<FileSnapshot[]> {
  return (await readProcedureDirectory(directory)).snapshots;
}

/**
 * One procedure file, or null when it does not exist, is not a regular file, is a link
 * leading out of the directory or is too big to read.
 */
export async function readProcedureFile(directory: string, slug: string): Promise<FileSnapshot | null> {
  const entry = readEntry(realDirectoryIfAny(directory), directory, slug);
  return entry !== null && 'snapshot' in entry ? entry.snapshot : null;
}

/** True when anything at all (a file, a link, a folder) is named `<slug>.md` in `directory`. */
export async function slugTaken(directory: string, slug: string): Promise<boolean> {
  try {
    await lstat(fileOf(directory, slug));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}

/**
 * Keep the current version of a file as `.history/<slug>/<stamp>-<hash>.md` before it is
 * replaced; the content hash keeps two versions of one instant apart.
 */
export async function keepHistory(directory: string, slug: string, stamp: string): Promise<string> {
  // `.history` may not be a link leading out of the directory: the copy would be written there.
  const folder = confinedFolder(directory, [HISTORY_FOLDER, slug], {
    component: 'procedures',
    field: 'procedures.directory',
  });
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
