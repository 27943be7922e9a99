import { createHash } from 'node:crypto';
import { copyFile, lstat, mkdir, readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { NotFoundError, ValidationError } from '../spec/errors.js';

/**
 * A file copied into the store's attachments directory, as recorded on its memory.
 *
 * @group Backups and maintenance
 */
export interface Attachment {
  /** File name inside the memory's folder, e.g. `screenshot_1234.png`. */
  name: string;
  /** Path relative to the attachments directory, e.g. `mem_…/screenshot_1234.png`. */
  path: string;
  /** Where it was copied from. */
  originalPath: string;
  /** Size in bytes. */
  bytes: number;
  /** sha256 of the content, hex. */
  sha256: string;
}

function refuse(field: string, message: string, component: string): never {
  throw new ValidationError([{ field, message }], { component });
}

// Memory ids are ours, but a caller's id could hold separators; keep folder names plain.
const safeSegment = (value: string) => value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';

/** The absolute path of `path` inside `directory`, refusing anything that would leave it. */
export function insideDirectory(directory: string, path: string, component: string): string {
  if (isAbsolute(path) || path.includes('\0'))
    refuse('path', 'expected a path inside the attachments directory', component);
  const root = resolve(directory);
  const target = resolve(root, path);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    refuse('path', `"${path}" leaves the attachments directory`, component);
  }
  return target;
}

/**
 * Copy (never move) a file into `<directory>/<memoryId>/`. A missing file is a
 * NotFoundError; a directory or anything but a regular file is refused.
 */
export async function copyAttachment(directory: string, memoryId: string, sourcePath: string): Promise<Attachment> {
  const component = 'attach';
  if (typeof sourcePath !== 'string' || sourcePath.length === 0 || sourcePath.includes('\0')) {
    refuse('path', 'expected the path of a file', component);
  }
  const source = resolve(sourcePath);
  const info = await lstat(source).catch(() => null);
  if (!info)
    throw new NotFoundError('file', source, {
      component,
      suggestion: 'Check the path; the file is copied, so it must exist now.',
    });
  if (info.isDirectory()) refuse('path', `"${source}" is a directory; attach files one by one`, component);
  if (!info.isFile()) refuse('path', `"${source}" is not a regular file`, component);
  const name = safeSegment(basename(source));
  const folder = join(resolve(directory), safeSegment(memoryId));
  await mkdir(folder, { recursive: true });
  const target = join(folder, name);
  await copyFile(source, target);
  const content = await readFile(target);
  return {
    name,
    path: relative(resolve(directory), target).split(sep).join('/'),
    originalPath: source,
    bytes: content.byteLength,
    sha256: createHash('sha256').update(content).digest('hex'),
  };
}

/** Read an attachment back by its recorded relative path; refuses paths that escape the directory. */
export async function readAttachmentFile(directory: string, path: string): Promise<Buffer> {
  const component = 'readAttachment';
  const target = insideDirectory(directory, path, component);
  const info = await stat(target).catch(() => null);
  if (!info?.isFile()) throw new NotFoundError('attachment', path, { component });
  return readFile(target);
}
