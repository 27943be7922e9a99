/**
 * Writing a backup archive as a stream. The dump is spooled to a temporary file first —
 * a tar header must state its entry's size, and the manifest that comes first must hold
 * the dump's checksum and counts — then the archive is gzipped from it into a second
 * temporary file, which gets its final name only when complete. Memory stays bounded by
 * a page of memories and a few chunks; gzip runs off the main thread, so the event loop
 * keeps turning. On any failure both temporary files are removed.
 *
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { StoreError } from '../spec/errors.js';
import type { Scope } from '../spec/memory.js';
import { lineLabel, MAX_LINE_BYTES } from './backup-dump.js';
import { linkUnique } from './backup-files.js';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupCounts,
  type BackupManifest,
  CONFIG_FILE,
  emptyCounts,
  MANIFEST_FILE,
  MEMORIES_FILE,
  sha256,
} from './backup-manifest.js';
import { type TarStreamInput, tarStream } from './tar-stream.js';
import type { ExportedLine } from './transfer.js';

const COMPONENT = 'backup';
/** Spooled lines are written in chunks of about this size. */
const SPOOL_CHUNK = 1024 * 1024;

const COUNTED: Partial<Record<ExportedLine['type'], keyof BackupCounts>> = {
  memory: 'memories',
  opinion: 'opinions',
  procedure: 'procedures',
  session: 'sessions',
  entity: 'entities',
};

/** What {@link writeBackupFile} needs. */
export interface WriteBackupInput {
  /** Directory to write into; created when missing. */
  directory: string;
  /** File name without the extension (`<timestamp>_<name>`); `~1`, `~2`, … are added on a clash. */
  base: string;
  /** The backup's name, for the manifest. */
  name: string;
  /** When it was made (ISO 8601), for the manifest. */
  createdAt: string;
  /** Modification time of the archive's entries, in milliseconds. */
  mtime: number;
  /** The scope the dump is limited to, recorded in the manifest. */
  scope?: Scope;
  /** Configuration to save as `config.json`. */
  config?: Record<string, unknown>;
  /** The dump's lines, as `exportLines` yields them. */
  lines: AsyncIterable<ExportedLine>;
}

/** What {@link writeBackupFile} wrote. */
export interface WrittenBackup {
  /** Absolute path of the archive. */
  path: string;
  /** Size of the archive file. */
  bytes: number;
  /** Its manifest. */
  manifest: BackupManifest;
}

/** The dump as file chunks, tallying size, checksum and counts on the way. */
async function* spoolChunks(
  lines: AsyncIterable<ExportedLine>,
  tally: { bytes: number; hash: ReturnType<typeof createHash>; counts: BackupCounts },
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    const bytes = Buffer.from(`${line.text}\n`, 'utf8');
    if (bytes.length - 1 > MAX_LINE_BYTES) {
      // A restore would refuse this line, so a backup holding it would not restore.
      throw new RangeError(`${lineLabel(lineNumber)} would be ${bytes.length - 1} bytes, over ${MAX_LINE_BYTES}`);
    }
    tally.hash.update(bytes);
    tally.bytes += bytes.length;
    const key = COUNTED[line.type];
    if (key) tally.counts[key] += 1;
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes >= SPOOL_CHUNK) {
      yield Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
    }
  }
  if (pending.length > 0) yield Buffer.concat(pending);
}

/**
 * Write a backup archive of `input.lines` into `input.directory` as `<base>.tar.gz`
 * (or `<base>~N.tar.gz`): `manifest.json`, `memories.jsonl`, and `config.json` when given.
 * Nothing but the finished archive is left behind, whatever fails.
 *
 * @throws StoreError when the directory cannot be written (full disk included) or the
 * store cannot be read; the temporary files are removed first.
 */
export async function writeBackupFile(input: WriteBackupInput): Promise<WrittenBackup> {
  const id = randomUUID();
  const spool = join(input.directory, `.${input.base}.${id}.jsonl.tmp`);
  const temp = join(input.directory, `.${input.base}.${id}.tmp`);
  try {
    await mkdir(input.directory, { recursive: true });
    const tally = { bytes: 0, hash: createHash('sha256'), counts: emptyCounts() };
    await pipeline(Readable.from(spoolChunks(input.lines, tally)), createWriteStream(spool, { flags: 'wx' }));

    const files: TarStreamInput[] = [
      { name: MEMORIES_FILE, size: tally.bytes, data: () => createReadStream(spool), mtime: input.mtime },
    ];
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: input.createdAt,
      name: input.name,
      ...(input.scope ? { scope: input.scope } : {}),
      files: { [MEMORIES_FILE]: { sha256: tally.hash.digest('hex'), bytes: tally.bytes } },
      counts: tally.counts,
    };
    if (input.config !== undefined) {
      const data = Buffer.from(`${JSON.stringify(input.config, null, 2)}\n`);
      files.push({ name: CONFIG_FILE, size: data.length, data, mtime: input.mtime });
      manifest.files[CONFIG_FILE] = { sha256: sha256(data), bytes: data.length };
    }
    const manifestData = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const entries = [
      { name: MANIFEST_FILE, size: manifestData.length, data: manifestData, mtime: input.mtime },
      ...files,
    ];
    await pipeline(tarStream(entries), createGzip(), createWriteStream(temp, { flags: 'wx' }));

    const bytes = (await stat(temp)).size;
    const path = resolve(await linkUnique(input.directory, input.base, temp));
    return { path, bytes, manifest };
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    throw new StoreError(`cannot write a backup into ${input.directory}: ${(error as Error).message}`, {
      component: COMPONENT,
      suggestion: 'Check that the directory exists or can be created, is writable and has free space.',
      cause: error,
    });
  } finally {
    await unlink(spool).catch(() => undefined);
    await unlink(temp).catch(() => undefined);
  }
}
