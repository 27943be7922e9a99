/**
 * ustar (POSIX tar) headers: writing one for a regular file, and reading one strictly.
 * Shared by the in-memory reader and writer (`tar-format.ts`) and the streaming ones
 * (`tar-stream.ts`), so both accept and refuse exactly the same archives.
 *
 * @module
 */
import { ValidationError } from '../spec/errors.js';

const COMPONENT = 'backup-archive';
/** Size of a tar block: headers, data padding and the end marker come in these. */
export const BLOCK = 512;

/** Throw the ValidationError a damaged or hostile archive gets. */
export function reject(field: string, message: string, suggestion?: string): never {
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

/**
 * The header of a regular file. Throws a RangeError for a name the reader would refuse
 * (the writer never produces what the reader rejects) or one too long for ustar.
 */
export function fileHeader(name: string, size: number, mtime: number): Buffer {
  const problem = unsafeEntryName(name);
  if (problem) throw new RangeError(`tar: cannot write "${name}": ${problem}`);
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

/** Zero bytes that pad `size` bytes of data to a whole block. */
export function paddingOf(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
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

/** True for the all-zero block that marks the end of an archive. */
export function isEndBlock(header: Buffer): boolean {
  return header.every((byte) => byte === 0);
}

/** What the readers track across the headers of one archive. */
export interface HeaderState {
  /** Names seen so far (a name may appear once). */
  seen: Set<string>;
  /** Data bytes declared so far. */
  total: number;
  /** Cap on `total`. */
  maxBytes: number;
}

/**
 * Check one header block (not the end marker) and return its entry's name and size.
 *
 * @throws ValidationError for a bad checksum or magic, an unsafe name, anything but a
 * regular file, a duplicate name, or data that would take the archive over `maxBytes`.
 */
export function parseHeader(header: Buffer, index: number, state: HeaderState): { name: string; size: number } {
  const where = `entry ${index}`;
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
  if (state.seen.has(name)) reject(`${label}: name`, 'the name appears twice');
  state.seen.add(name);

  const size = readOctal(header, 124, 12, `${label}: size`);
  state.total += size;
  if (state.total > state.maxBytes) {
    reject(`${label}: size`, `the archive holds more than ${state.maxBytes} bytes of data`);
  }
  return { name, size };
}
