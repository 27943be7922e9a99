/**
 * Which output paths the CLI refuses: the person running it may name any file to write,
 * except one that is memoir's own live data. Writing an export over the store file, its
 * `-wal`/`-shm`/`-journal`, a LanceDB table or the backups folder would destroy the store
 * (or the backups that are meant to save it), whatever way the path reaches it: relative,
 * through `..`, a symlinked file or a symlinked directory.
 */
import { closeSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { CliUsageError } from './cli-errors.js';

/** The files beside a SQLite database that belong to it. */
const SIDECARS = ['-wal', '-shm', '-journal'] as const;
/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** More links than this in one path is a loop. */
const MAX_LINKS = 40;

/** The home's own places an output must stay out of. */
export interface ProtectedPlaces {
  /** The live store file (`<home>/memoir.sqlite`); its -wal, -shm and -journal are protected with it. */
  storeFile: string;
  /** The backups folder (`<home>/backups`); nothing may be written inside it. */
  backupDirectory: string;
  /** Other folders of memoir's own (attachments, procedures): nothing may be written inside them. */
  directories: readonly string[];
  /** Other files of memoir's own (the configuration). */
  files: readonly string[];
}

/**
 * `path` with every symlink resolved, also in the part that does not exist yet and in a
 * dangling final link (a write would follow it and create its target).
 */
export function canonicalPath(path: string, links = 0): string {
  const rest: string[] = [];
  let head = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(head), ...rest.reverse());
    } catch {
      // `head` does not exist (or is a dangling link): look at it, then at its parent.
    }
    let link: string | undefined;
    try {
      if (lstatSync(head).isSymbolicLink()) link = readlinkSync(head);
    } catch {
      link = undefined;
    }
    if (link !== undefined && links < MAX_LINKS) {
      return canonicalPath(join(resolve(dirname(head), link), ...rest.reverse()), links + 1);
    }
    const parent = dirname(head);
    if (parent === head) return join(head, ...rest.reverse());
    rest.push(basename(head));
    head = parent;
  }
}

function isSqliteDatabase(path: string): boolean {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    return readSync(descriptor, header, 0, header.length, 0) === header.length && header.equals(SQLITE_MAGIC);
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

const inside = (path: string, directory: string) => path === directory || path.startsWith(directory + sep);

/** Why `path` (canonical) is memoir's live data, or null when it may be written. */
function protectedReason(path: string, places: ProtectedPlaces): string | null {
  const store = canonicalPath(places.storeFile);
  for (const suffix of ['', ...SIDECARS]) {
    if (path === store + suffix)
      return suffix ? `the ${suffix.slice(1)} file of the live store ${store}` : `the live store ${store}`;
  }
  if (inside(path, canonicalPath(places.backupDirectory))) {
    return `inside the backups folder ${canonicalPath(places.backupDirectory)}`;
  }
  for (const directory of places.directories.map((each) => canonicalPath(each))) {
    if (inside(path, directory)) return `inside memoir's folder ${directory}`;
  }
  for (const file of places.files.map((each) => canonicalPath(each))) {
    if (path === file) return `memoir's file ${file}`;
  }
  const lance = path.split(sep).findIndex((part) => part.endsWith('.lance'));
  if (lance > 0)
    return `inside the LanceDB table ${path
      .split(sep)
      .slice(0, lance + 1)
      .join(sep)}`;
  if (isSqliteDatabase(path)) return 'a SQLite database';
  for (const suffix of SIDECARS) {
    if (path.endsWith(suffix) && isSqliteDatabase(path.slice(0, -suffix.length))) {
      return `the ${suffix.slice(1)} file of the SQLite database ${path.slice(0, -suffix.length)}`;
    }
  }
  // A hard link to a store file is that file under another name.
  const target = statOrNull(path);
  if (target) {
    for (const suffix of ['', ...SIDECARS]) {
      const other = statOrNull(store + suffix);
      if (other && other.ino === target.ino && other.dev === target.dev) return `a link to ${store + suffix}`;
    }
  }
  return null;
}

/**
 * Refuse `file` as the output of `command` when it is (or resolves to) the live store, a
 * file beside it, any SQLite database or its sidecar, a LanceDB table, or the backups folder.
 *
 * @throws CliUsageError saying which of them it is.
 */
export function refuseProtectedOutput(file: string, places: ProtectedPlaces, command: string): void {
  const path = canonicalPath(file);
  const reason = protectedReason(path, places);
  if (reason === null) return;
  const shown = path === resolve(file) ? path : `${resolve(file)} (${path})`;
  throw new CliUsageError(
    `${command} will not write to ${shown}: it is ${reason}, and writing there would destroy memoir's data`,
    `Name a file outside memoir's store and backups, e.g. \`memoir ${command} ${join(process.cwd(), 'memories.jsonl')}\`, or - for stdout.`,
    { code: 'PROTECTED_PATH' },
  );
}
