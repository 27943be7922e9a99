/**
 * A minimal ustar (POSIX tar) writer and a strict reader that work on whole archives in
 * memory, gzipped with node:zlib. For small archives and tests: backups themselves are
 * written and read as streams (`tar-stream.ts`), with the same header checks.
 *
 * Only regular files are written or accepted. The reader never touches the file system:
 * it returns the entries in memory and rejects anything a hostile archive could use to
 * escape a directory (absolute paths, `..`, backslashes, NUL, links, devices, directories),
 * as well as bad header checksums, truncated data and oversized content.
 *
 * @module
 */
import { constants as bufferConstants } from 'node:buffer';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ValidationError } from '../spec/errors.js';
import { BLOCK, fileHeader, isEndBlock, paddingOf, parseHeader, reject } from './tar-header.js';

const COMPONENT = 'backup-archive';
/** Default cap on the total bytes of entry data the in-memory readers accept: 2 GiB. */
export const DEFAULT_MAX_TAR_BYTES = 2 * 1024 * 1024 * 1024;

/** One regular file in a tar archive. */
export interface TarEntry {
  /** Relative path inside the archive, `/`-separated. */
  name: string;
  /** Always `file`: the reader rejects every other type. */
  type: 'file';
  /** Bytes of `data`. */
  size: number;
  /** File contents. */
  data: Buffer;
}

/** A file to write with {@link writeTarGz}. */
export interface TarInput {
  /** Relative path inside the archive (checked like the reader checks names). */
  name: string;
  /** File contents; strings are written as UTF-8. */
  data: Buffer | string;
  /** Modification time in milliseconds since the epoch. Default 0. */
  mtime?: number;
}

/** Options of {@link readTarGz} and {@link readTar}. */
export interface ReadTarOptions {
  /** Maximum total bytes of entry data. Default {@link DEFAULT_MAX_TAR_BYTES} (2 GiB). */
  maxBytes?: number;
}

/** An uncompressed ustar archive of regular files, ending with two zero blocks. */
export function writeTar(entries: readonly TarInput[]): Buffer {
  const chunks: Buffer[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.name)) throw new RangeError(`tar: "${entry.name}" is written twice`);
    seen.add(entry.name);
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    chunks.push(fileHeader(entry.name, data.length, entry.mtime ?? 0), data);
    const padding = paddingOf(data.length);
    if (padding > 0) chunks.push(Buffer.alloc(padding));
  }
  chunks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(chunks);
}

/** {@link writeTar}, gzipped. */
export function writeTarGz(entries: readonly TarInput[]): Buffer {
  return gzipSync(writeTar(entries));
}

/**
 * Read an uncompressed ustar archive into memory. Nothing is written anywhere.
 *
 * @throws ValidationError for an unsafe name, a non-regular entry, a bad checksum, a
 * duplicate name, truncated data, a missing end-of-archive marker or content over `maxBytes`.
 */
export function readTar(archive: Buffer, options: ReadTarOptions = {}): TarEntry[] {
  const state = { seen: new Set<string>(), total: 0, maxBytes: options.maxBytes ?? DEFAULT_MAX_TAR_BYTES };
  const entries: TarEntry[] = [];
  let offset = 0;
  for (;;) {
    if (offset + BLOCK > archive.length) {
      reject('archive', 'truncated: it ends before the end-of-archive marker');
    }
    const header = archive.subarray(offset, offset + BLOCK);
    if (isEndBlock(header)) break;
    const { name, size } = parseHeader(header, entries.length + 1, state);
    const start = offset + BLOCK;
    if (start + size > archive.length) {
      reject(
        `entry ${entries.length + 1} (${JSON.stringify(name)}): data`,
        `truncated: ${size} bytes declared, ${Math.max(0, archive.length - start)} present`,
      );
    }
    entries.push({ name, type: 'file', size, data: Buffer.from(archive.subarray(start, start + size)) });
    offset = start + size + paddingOf(size);
  }
  return entries;
}

/**
 * Gunzip and read a `.tar.gz` archive into memory with {@link readTar}. Nothing is written
 * anywhere. The whole archive is held in memory: backups are read with the streaming
 * reader instead.
 *
 * @throws ValidationError for data that is not gzip, truncated gzip, or anything {@link readTar} rejects.
 */
export function readTarGz(archive: Buffer, options: ReadTarOptions = {}): TarEntry[] {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TAR_BYTES;
  // Headers and padding on top of the data; capped by what a Buffer can hold.
  const maxOutputLength = Math.min(bufferConstants.MAX_LENGTH, maxBytes + 64 * 1024 * 1024);
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message =
      code === 'ERR_BUFFER_TOO_LARGE'
        ? `it unpacks to more than ${maxOutputLength} bytes`
        : `not a valid gzip stream (${(error as Error).message})`;
    throw new ValidationError([{ field: 'archive', message }], {
      component: COMPONENT,
      suggestion: 'The archive is damaged or truncated; nothing was restored.',
      cause: error,
    });
  }
  return readTar(tar, { maxBytes });
}
