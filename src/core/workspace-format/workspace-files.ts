/** Which files of a workspace hold memory, and what each is for. */
import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isWithin, realDirectoryIfAny } from '../utils/confined-path.js';
import { UNDATED_AT } from '../utils/undated.js';
import type { FileRole, WorkspaceWarning } from './workspace-chunks.js';

/**
 * The largest workspace file memoir reads, in bytes (2 MiB, some 500,000 words). A bigger
 * file is not read: `index()` reports it in `skipped` with the reason and indexes the rest
 * of the workspace; reflect leaves such a page alone. Split a file that outgrows it (a day
 * file per day, a page per entity).
 */
export const MAX_WORKSPACE_FILE_BYTES = 2 * 1024 * 1024;

/**
 * The most items (paragraphs and list items) one workspace file may hold: 20,000. A file
 * with more is not indexed: `index()` reports it in `skipped` and indexes the rest.
 */
export const MAX_WORKSPACE_FILE_ITEMS = 20_000;

const DAY_FILE = /^memory\/(\d{4})-(\d{2})-(\d{2})\.md$/;
const CORE_FILES = ['memory.md', 'MEMORY.md'];

/** A workspace file to index. */
export interface WorkspaceFile {
  /** Path relative to the workspace root, with `/` separators (what citations show). */
  path: string;
  /** Absolute path. */
  absolute: string;
  /** What the file is for. */
  role: FileRole;
}

import type { SkippedWorkspaceFile } from '../engine/events.js';

export type { SkippedWorkspaceFile };

/** What a listing found: the files to read, and the entries it would not follow. */
export interface WorkspaceListing {
  /** The memory files, sorted by path. */
  files: WorkspaceFile[];
  /** Links that leave the workspace and folders that could not be read. */
  skipped: SkippedWorkspaceFile[];
}

type Resolved = { real: string; folder: boolean } | { skipped: string } | undefined;

// Where `path` really is, when it stays inside the workspace: a link leaving it is not followed.
function resolveInside(realRoot: string, path: string): Resolved {
  let real: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) real = path;
    else real = realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { skipped: `cannot be resolved (${code ?? String(error)})` };
  }
  if (real !== path && !isWithin(realRoot, real))
    return { skipped: `is a symbolic link to ${real}, outside ${realRoot}; it is not followed` };
  try {
    const info = statSync(real);
    return { real, folder: info.isDirectory() };
  } catch {
    return undefined;
  }
}

// Every `.md` file under the folder `top`, walked with a stack (no recursion, so any depth is
// fine) and each real folder once (a link back up cannot loop).
function markdownUnder(realRoot: string, top: string, skipped: SkippedWorkspaceFile[]): string[] {
  const out: string[] = [];
  const start = resolveInside(realRoot, join(realRoot, top));
  if (start === undefined) return out;
  if ('skipped' in start) {
    skipped.push({ file: top, reason: start.skipped });
    return out;
  }
  if (!start.folder) return out;
  const seen = new Set<string>([start.real]);
  const stack: Array<{ path: string; real: string }> = [{ path: top, real: start.real }];
  while (stack.length > 0) {
    const { path: folder, real } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(real, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A folder deleted meanwhile has nothing in it; one the process may not read is said.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') skipped.push({ file: folder, reason: `cannot be read (${code})` });
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = `${folder}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        const target = resolveInside(realRoot, join(real, entry.name));
        if (target === undefined) continue;
        if ('skipped' in target) skipped.push({ file: path, reason: target.skipped });
        else if (target.folder) {
          if (!seen.has(target.real)) {
            seen.add(target.real);
            stack.push({ path, real: target.real });
          }
        } else if (entry.name.endsWith('.md')) out.push(path);
      } else if (entry.isDirectory()) {
        const child = join(real, entry.name);
        if (!seen.has(child)) {
          seen.add(child);
          stack.push({ path, real: child });
        }
      } else if (entry.isFile() && entry.name.endsWith('.md')) out.push(path);
    }
  }
  return out;
}

/** The role a workspace path plays. */
export function roleOf(path: string): FileRole {
  if (CORE_FILES.includes(path)) return { kind: 'world', category: 'profile', typedEverywhere: true };
  if (DAY_FILE.test(path) || /^memory\/[^/]*\.md$/.test(path))
    return { kind: 'experience', category: 'events', typedEverywhere: false };
  const entity = /^bank\/entities\/(.+)\.md$/.exec(path)?.[1];
  if (entity !== undefined) return { kind: 'world', category: 'entities', entity, typedEverywhere: true };
  if (path === 'bank/opinions.md') return { kind: 'opinion', category: 'preferences', typedEverywhere: true };
  if (path === 'bank/experience.md') return { kind: 'experience', category: 'note', typedEverywhere: true };
  return { kind: 'world', category: 'note', typedEverywhere: true };
}

/**
 * The memory files of a workspace, sorted by path: `memory.md`, `memory/**`, `bank/**`.
 * A link that leaves the workspace (the file itself or a folder on the way) is not followed
 * and is listed in `skipped`; a link that stays inside is followed.
 */
export function listWorkspaceFiles(root: string): WorkspaceListing {
  const realRoot = realDirectoryIfAny(root);
  const skipped: SkippedWorkspaceFile[] = [];
  if (realRoot === undefined) return { files: [], skipped };
  const core: string[] = [];
  for (const name of CORE_FILES) {
    const target = resolveInside(realRoot, join(realRoot, name));
    if (target === undefined) continue;
    if ('skipped' in target) skipped.push({ file: name, reason: target.skipped });
    else if (!target.folder) core.push(name);
  }
  const paths = [...core, ...markdownUnder(realRoot, 'memory', skipped), ...markdownUnder(realRoot, 'bank', skipped)];
  const files = [...new Set(paths)]
    .sort()
    .map((path) => ({ path, absolute: join(root, ...path.split('/')), role: roleOf(path) }));
  return { files, skipped: skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) };
}

/** The path of `absolute` relative to `root`, with `/` separators. */
export function workspacePath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}

/**
 * When a file's plain items happened: a day file's date; any other file (`memory.md`, the
 * `bank/` pages) has none, so its items are undated ({@link UNDATED_AT}) unless a line or its
 * heading states a date. A file's modification time is not its date: an edit of a page
 * written long ago would make every line of it look recent to a time filter. A day file
 * named with a date that does not exist gets a warning and is undated too.
 */
export function fileDate(file: WorkspaceFile, warnings: WorkspaceWarning[]): string {
  const day = DAY_FILE.exec(file.path);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const ms = Date.UTC(year, month - 1, date);
    const parsed = new Date(ms);
    if (parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === date) return parsed.toISOString();
    warnings.push({
      file: file.path,
      line: 1,
      message: `the file name is not a date that exists; its lines are undated`,
    });
  }
  return UNDATED_AT;
}
