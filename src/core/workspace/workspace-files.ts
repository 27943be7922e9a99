/** Which files of a workspace hold memory, and what each is for. */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FileRole, WorkspaceWarning } from './workspace-chunks.js';

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

function markdownUnder(root: string, directory: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(join(root, directory), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) out.push(...markdownUnder(root, path));
    else if (entry.isFile() && entry.name.endsWith('.md')) out.push(path);
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

/** The memory files of a workspace, sorted by path: `memory.md`, `memory/**`, `bank/**`. */
export function listWorkspaceFiles(root: string): WorkspaceFile[] {
  const paths = [
    ...CORE_FILES.filter((name) => {
      try {
        return statSync(join(root, name)).isFile();
      } catch {
        return false;
      }
    }),
    ...markdownUnder(root, 'memory'),
    ...markdownUnder(root, 'bank'),
  ];
  return [...new Set(paths)]
    .sort()
    .map((path) => ({ path, absolute: join(root, ...path.split('/')), role: roleOf(path) }));
}

/** The path of `absolute` relative to `root`, with `/` separators. */
export function workspacePath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}

/**
 * When a file's plain items happened: a day file's date, else the file's modification time.
 * A day file named with a date that does not exist gets a warning and its modification time.
 */
export function fileDate(file: WorkspaceFile, modifiedMs: number, warnings: WorkspaceWarning[]): string {
  const day = DAY_FILE.exec(file.path);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const ms = Date.UTC(year, month - 1, date);
    const parsed = new Date(ms);
    if (parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === date) return parsed.toISOString();
    warnings.push({
      file: file.path,
      line: 1,
      message: `the file name is not a date that exists; its modification time is used`,
    });
  }
  return new Date(Math.floor(modifiedMs / 1000) * 1000).toISOString();
}
