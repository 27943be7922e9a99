/**
 * A minimal ustar (POSIX tar) writer and a strict reader, gzipped with node:zlib.
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
import { ValidationError } from '../../spec/errors.js';

const COMPONENT = 'backup-archive';
const BLOCK = 512;
/** Default cap on the total bytes of entry data a reader accepts: 2 GiB. */
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

function reject(field: string, message: string, suggestion?: string): never {
  throw new ValidationError([{ field, message }], {
    component: COMPONENT,
    suggestion: suggestion ?? 'The archive is damaged or was not written by memoir; nothing was restored.',
  });
}

/**
 * Why `name` is not a safe relative path, or null when it is. Safe means: non-empty,
 * relative, `/`-separated, no empty, `.` or `..` segment, no backslash, NUL or control character.
 */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.includes('\0')) return 'the name contains a NUL byte';
  if (name.includes('\\')) return 'the name contains a backslash';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'the name contains a control character';
  if (name.startsWith('/')) return 'the name is an absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'the name starts with a drive letter';
  const segments = name.split('/');
  if (segments.some((segment) => segment === '..')) return 'the name contains a ".." segment';
  if (segments.some((segment) => segment === '' || segment === '.')) return 'the name has an empty or "." segment';
  return null;
}

// ---------------------------------------------------------------------------
// Writing

function writeString(header: Buffer, text: string, offset: number, length: number): void {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > length) throw new RangeError(`tar: "${text}" does not fit in ${length} bytes`);
  bytes.copy(header, offset);
}

function writeOctal(header: Buffer, value: number, offset: number, length: number): void {
  // length - 1 octal digits then a NUL.
  const digits = Math.floor(value).toString(8);
  if (digits.length > length - 1) throw new RangeError(`tar: ${value} does not fit in ${length - 1} octal digits`);
  writeString(header, `${digits.padStart(length - 1, '0')}\0`, offset, length);
}

/** The header checksum: the sum of every byte, with the checksum field counted as spaces. */
export function tarChecksum(header: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  return sum;
}

/** Split a name into ustar `prefix` (≤ 155 bytes) and `name` (≤ 100 bytes) at a `/`. */
function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  for (let at = name.indexOf('/'); at > 0; at = name.indexOf('/', at + 1)) {
    const prefix = name.slice(0, at);
    const rest = name.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest.length > 0) {
      return { prefix, name: rest };
    }
  }
  throw new RangeError(`tar: the name "${name}" is too long for ustar`);
}

function fileHeader(name: string, size: number, mtime: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  const parts = splitName(name);
  writeString(header, parts.name, 0, 100);
  writeOctal(header, 0o644, 100, 8);
  writeOctal(header, 0, 108, 8);
  writeOctal(header, 0, 116, 8);
  writeOctal(header, size, 124, 12);
  writeOctal(header, Math.max(0, Math.floor(mtime / 1000)), 136, 12);
  header[156] = 0x30; // '0': regular file
  writeString(header, 'ustar\0', 257, 6);
  writeString(header, '00', 263, 2);
  writeString(header, parts.prefix, 345, 155);
  writeString(header, `${tarChecksum(header).toString(8).padStart(6, '0')}\0 `, 148, 8);
  return header;
}

/** An uncompressed ustar archive of regular files, ending with two zero blocks. */
export function writeTar(entries: readonly TarInput[]): Buffer {
  const chunks: Buffer[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const problem = unsafeEntryName(entry.name);
    if (problem) throw new RangeError(`tar: cannot write "${entry.name}": ${problem}`);
    if (seen.has(entry.name)) throw new RangeError(`tar: "${entry.name}" is written twice`);
    seen.add(entry.name);
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    chunks.push(fileHeader(entry.name, data.length, entry.mtime ?? 0), data);
    const padding = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (padding > 0) chunks.push(Buffer.alloc(padding));
  }
  chunks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(chunks);
}

/** {@link writeTar}, gzipped. */
export function writeTarGz(entries: readonly TarInput[]): Buffer {
  return gzipSync(writeTar(entries));
}

// ---------------------------------------------------------------------------
// Reading

function readField(header: Buffer, offset: number, length: number, field: string): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  if (end >= 0 && bytes.subarray(end).some((byte) => byte !== 0)) {
    reject(field, 'the name contains a NUL byte');
  }
  return bytes.subarray(0, end < 0 ? length : end).toString('utf8');
}

function readOctal(header: Buffer, offset: number, length: number, field: string): number {
  const bytes = header.subarray(offset, offset + length);
  if ((bytes[0]! & 0x80) !== 0) reject(field, 'base-256 numbers are not supported');
  const text = bytes
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) reject(field, `expected an octal number (got ${JSON.stringify(text)})`);
  return Number.parseInt(text, 8);
}

const TYPE_NAMES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '5': 'a directory',
  '6': 'a FIFO',
  '7': 'a contiguous file',
  x: 'a pax extended header',
  g: 'a pax global header',
  L: 'a GNU long name',
  K: 'a GNU long link name',
};

/**
 * Read an uncompressed ustar archive into memory. Nothing is written anywhere.
 *
 * @throws ValidationError for an unsafe name, a non-regular entry, a bad checksum, a
 * duplicate name, truncated data, a missing end-of-archive marker or content over `maxBytes`.
 */
export function readTar(archive: Buffer, options: ReadTarOptions = {}): TarEntry[] {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TAR_BYTES;
  const entries: TarEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let offset = 0;
  for (;;) {
    if (offset + BLOCK > archive.length) {
      reject('archive', 'truncated: it ends before the end-of-archive marker');
    }
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const where = `entry ${entries.length + 1}`;

    const stored = readOctal(header, 148, 8, `${where}: checksum`);
    if (stored !== tarChecksum(header)) {
      reject(`${where}: checksum`, `header checksum mismatch (stored ${stored}, computed ${tarChecksum(header)})`);
    }
    const magic = header.subarray(257, 262).toString('latin1');
    if (magic !== 'ustar') reject(`${where}: magic`, 'not a ustar header');

    const baseName = readField(header, 0, 100, `${where}: name`);
    const prefix = readField(header, 345, 155, `${where}: prefix`);
    const name = prefix ? `${prefix}/${baseName}` : baseName;
    const label = `${where} (${JSON.stringify(name)})`;
    const problem = unsafeEntryName(name);
    if (problem) reject(`${label}: name`, `unsafe entry name: ${problem}`);

    const typeFlag = header[156] === 0 ? '0' : String.fromCharCode(header[156]!);
    if (typeFlag !== '0') {
      const kind = TYPE_NAMES[typeFlag] ?? `type "${typeFlag}"`;
      reject(`${label}: type`, `only regular files are allowed (this entry is ${kind})`);
    }
    if (seen.has(name)) reject(`${label}: name`, 'the name appears twice');
    seen.add(name);

    const size = readOctal(header, 124, 12, `${label}: size`);
    total += size;
    if (total > maxBytes) reject(`${label}: size`, `the archive holds more than ${maxBytes} bytes of data`);
    const start = offset + BLOCK;
    if (start + size > archive.length) {
      reject(`${label}: data`, `truncated: ${size} bytes declared, ${Math.max(0, archive.length - start)} present`);
    }
    entries.push({ name, type: 'file', size, data: Buffer.from(archive.subarray(start, start + size)) });
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}

/**
 * Gunzip and read a `.tar.gz` archive into memory with {@link readTar}. Nothing is written anywhere.
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
