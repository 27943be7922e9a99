/**
 * Reading a backup archive as a stream, checking everything on the way: entry names and
 * types, header checksums, the manifest, every file's size and SHA-256, every dump line
 * against the model schemas (and a scope), and the counts. Memory stays bounded by a few
 * chunks and one line, whatever the archive's size; sizes are capped as bytes flow.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { NotFoundError, StoreError, ValidationError } from '../spec/errors.js';
import type { Scope } from '../spec/memory.js';
import type { EmbedderIdentity } from '../spec/store.js';
import { DumpChecker, type DumpItem, LineSplitter, lineLabel, MAX_LINE_BYTES } from './backup-dump.js';
import {
  type BackupCounts,
  type BackupManifest,
  checkCounts,
  checkFiles,
  invalid,
  KNOWN_FILES,
  MANIFEST_FILE,
  MAX_SMALL_FILE_BYTES,
  MEMORIES_FILE,
  parseConfig,
  parseManifest,
  type SeenFile,
} from './backup-manifest.js';
import { ArchiveReadError, gunzipStream, readTarStream, type TarStreamEntry } from './tar-stream.js';

const COMPONENT = 'backup';
/** Default cap on the data a backup may unpack to: 64 GiB. Memory use does not depend on it. */
export const DEFAULT_MAX_BACKUP_BYTES = 64 * 1024 * 1024 * 1024;
/** Headers, padding and what may follow the end marker, on top of the data. */
const TAR_OVERHEAD = 4 * 1024 * 1024;
const DEFAULT_BATCH = 500;
const READ_CHUNK = 256 * 1024;
/** A batch is handed out early once its lines reach this many characters. */
const BATCH_CHARS = 2 * 1024 * 1024;

/** Options of {@link scanBackup} and {@link verifyBackup}. */
export interface ScanBackupOptions {
  /** Most bytes of data the archive may unpack to. Default {@link DEFAULT_MAX_BACKUP_BYTES} (64 GiB). */
  maxBytes?: number;
  /** Refuse any memory or record outside this scope. */
  scope?: Scope;
  /** Called, and awaited, with the memories and records in dump order, in batches. */
  onBatch?: (items: DumpItem[]) => Promise<void>;
  /** Items per `onBatch` call. Default 500. */
  batchSize?: number;
  /** Called with the manifest as soon as it is read (it comes first): what the rest holds, for progress. */
  onManifest?: (manifest: BackupManifest) => void;
}

/** What a scan found, once every check passed. */
export interface ScannedBackup {
  /** The manifest. */
  manifest: BackupManifest;
  /** The configuration saved with the backup, or null. */
  config: Record<string, unknown> | null;
  /** Embedder named by the dump's header, or null. */
  embedder: EmbedderIdentity | null;
  /** Counts of what was read (equal to the manifest's). */
  counts: BackupCounts;
}

/** A problem that ends the scan at once rather than after the rest of the entry is hashed. */
class RefusedArchive {
  constructor(readonly error: ValidationError) {}
}

/**
 * The most lines and bytes a dump may hold for its manifest's counts: a header and one line
 * per memory and record, none longer than {@link MAX_LINE_BYTES}.
 */
function dumpBound(manifest: BackupManifest): { lines: number; bytes: number } {
  const { memories, opinions, procedures, sessions, entities } = manifest.counts;
  const lines = 1 + memories + opinions + procedures + sessions + entities;
  return { lines, bytes: lines * (MAX_LINE_BYTES + 1) };
}

function blankLine(line: number): ValidationError {
  return invalid([{ field: lineLabel(line), message: 'a blank line; a memoir dump has none' }]);
}

function tooManyLines(manifest: BackupManifest, line: number): ValidationError {
  const { memories, opinions, procedures, sessions, entities } = manifest.counts;
  const counted = memories + opinions + procedures + sessions + entities;
  return invalid([
    {
      field: `${MANIFEST_FILE}.counts`,
      message: `count mismatch (manifest ${counted} memories and records, ${MEMORIES_FILE} holds more: line ${line} is past them)`,
    },
  ]);
}

async function readSmallFile(entry: TarStreamEntry, hash: ReturnType<typeof createHash>): Promise<string> {
  if (entry.size > MAX_SMALL_FILE_BYTES) {
    throw invalid([{ field: entry.name, message: `larger than ${MAX_SMALL_FILE_BYTES} bytes` }]);
  }
  const parts: Buffer[] = [];
  for await (const chunk of entry.body) {
    hash.update(chunk);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Read a gzipped backup archive from `source` and check all of it. With `onBatch`, the
 * memories and records are handed out as they are read: a caller that writes them must be
 * ready to undo everything (a transaction) when the scan rejects at the end.
 *
 * A bad dump line is reported only once the rest of the file has been hashed: when the
 * checksum does not match either, the archive is damaged and that is what is reported.
 *
 * @throws ValidationError naming the first problem; {@link ArchiveReadError} when `source` fails.
 */
export async function scanBackup(source: Readable, options: ScanBackupOptions = {}): Promise<ScannedBackup> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BACKUP_BYTES;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const seen = new Map<string, SeenFile>();
  const checker = new DumpChecker({ scope: options.scope });
  let manifest: BackupManifest | null = null;
  let configText: string | null = null;
  let lineError: ValidationError | null = null;

  const inflated = gunzipStream(source, maxBytes + TAR_OVERHEAD);
  try {
    for await (const entry of readTarStream(inflated, { maxBytes })) {
      if (!KNOWN_FILES.has(entry.name)) {
        throw invalid([{ field: entry.name, message: 'unexpected file in a memoir backup' }]);
      }
      // The manifest comes first (every memoir backup is written so): it bounds the work the
      // rest may cost before a byte of it is inflated.
      if (!manifest && entry.name !== MANIFEST_FILE) {
        throw invalid([{ field: entry.name, message: `expected after ${MANIFEST_FILE}, which a backup starts with` }]);
      }
      // A manifest read first tells each file's size before its data is inflated.
      const expected = manifest?.files[entry.name];
      if (expected && expected.bytes !== entry.size) {
        throw invalid([
          { field: entry.name, message: `size mismatch (manifest ${expected.bytes} bytes, archive ${entry.size})` },
        ]);
      }
      const hash = createHash('sha256');
      if (entry.name === MEMORIES_FILE && manifest) {
        const bound = dumpBound(manifest);
        if (entry.size > bound.bytes) {
          throw invalid([
            {
              field: MEMORIES_FILE,
              message: `${entry.size} bytes, more than the manifest's counts can take (${bound.lines} line${bound.lines === 1 ? '' : 's'} of at most ${MAX_LINE_BYTES} bytes)`,
            },
          ]);
        }
        const splitter = new LineSplitter();
        let batch: DumpItem[] = [];
        let batchChars = 0;
        const accept = (lines: Iterable<[string, number]>) => {
          if (lineError) return;
          try {
            for (const [text, line] of lines) {
              // Refused at once, not after the rest is hashed: no export writes a blank line or
              // more lines than its manifest counts, and each would cost the reader a pass.
              if (text.trim() === '') throw new RefusedArchive(blankLine(line));
              if (line > bound.lines) throw new RefusedArchive(tooManyLines(manifest!, line));
              const item = checker.accept(text, line);
              if (item && options.onBatch) {
                batch.push(item);
                batchChars += text.length;
              }
            }
          } catch (error) {
            if (error instanceof RefusedArchive) throw error.error;
            if (!ValidationError.isInstance(error)) throw error;
            lineError = error;
          }
        };
        for await (const chunk of entry.body) {
          hash.update(chunk);
          accept(splitter.push(chunk));
          if ((batch.length >= batchSize || batchChars >= BATCH_CHARS) && !lineError) {
            await options.onBatch?.(batch);
            batch = [];
            batchChars = 0;
          }
        }
        accept(splitter.end());
        if (batch.length > 0 && !lineError) await options.onBatch?.(batch);
      } else if (entry.name === MANIFEST_FILE) {
        manifest = parseManifest(await readSmallFile(entry, hash));
        options.onManifest?.(manifest);
      } else {
        configText = await readSmallFile(entry, hash);
      }
      seen.set(entry.name, { bytes: entry.size, sha256: hash.digest('hex') });
    }
  } finally {
    await inflated.return(undefined);
  }

  if (!manifest) throw invalid([{ field: MANIFEST_FILE, message: 'missing from the archive' }]);
  checkFiles(manifest, seen);
  if (lineError) throw lineError;
  if (!seen.has(MEMORIES_FILE)) throw invalid([{ field: MEMORIES_FILE, message: 'missing from the archive' }]);
  checker.finish();
  checkCounts(manifest, checker.counts);
  const config = configText === null ? null : parseConfig(configText);
  return { manifest, config, embedder: checker.embedder, counts: checker.counts };
}

/**
 * Open a backup file for reading.
 *
 * @throws NotFoundError when it does not exist; StoreError when it cannot be read.
 */
export async function openBackup(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new NotFoundError('backup', path, { component: COMPONENT, cause: error });
    }
    throw new StoreError(`cannot read the backup ${path}`, { component: COMPONENT, cause: error });
  }
}

/** The file's bytes from its start, by positional reads: closing the stream leaves the handle open. */
async function* readChunks(handle: FileHandle): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * {@link scanBackup} over an open file, from its start; the handle stays open, so a second
 * scan reads the very same file. A read failure becomes a StoreError.
 */
export async function scanBackupFile(
  handle: FileHandle,
  path: string,
  options: ScanBackupOptions = {},
): Promise<ScannedBackup> {
  try {
    return await scanBackup(Readable.from(readChunks(handle), { objectMode: false }), options);
  } catch (error) {
    if (error instanceof ArchiveReadError) {
      throw new StoreError(`cannot read the backup ${path}`, { component: COMPONENT, cause: error.cause });
    }
    throw error;
  }
}

/**
 * Read the backup at `path` back completely and check it — entry names and types, header
 * checksums, manifest, sizes and checksums, every record, counts — writing nothing.
 *
 * @throws ValidationError when any check fails; NotFoundError when `path` does not exist.
 */
export async function verifyBackup(path: string, options: ScanBackupOptions = {}): Promise<ScannedBackup> {
  const handle = await openBackup(path);
  try {
    return await scanBackupFile(handle, path, options);
  } finally {
    await handle.close();
  }
}
