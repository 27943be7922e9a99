/**
 * The raw pages of a SQLite file, with the committed frames of its write-ahead log laid
 * over them, read with plain file reads. Salvage reads a damaged file this way because
 * SQLite itself stops at the first bad page (and deletes the WAL of a 0-byte file).
 * Nothing here writes.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;
const DEFAULT_PAGE_SIZE = 4096;

/** How text is stored in the file (header offset 56). */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

/** True when `bytes` start with the SQLite header string. */
export function hasSqliteMagic(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && MAGIC.equals(bytes.subarray(0, MAGIC.length));
}

function validPageSize(size: number): boolean {
  return size >= 512 && size <= 65536 && (size & (size - 1)) === 0;
}

/** The page size the header names (1 means 65536), or null when the header is not SQLite's. */
export function headerPageSize(header: Uint8Array): number | null {
  if (!hasSqliteMagic(header) || header.length < HEADER_BYTES) return null;
  const raw = (header[16]! << 8) | header[17]!;
  const size = raw === 1 ? 65536 : raw;
  return validPageSize(size) ? size : null;
}

function readAt(fd: number, length: number, position: number): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

// The WAL checksum: two running 32-bit sums over pairs of 32-bit words, in the byte order
// the WAL's magic number names.
function walChecksum(data: Buffer, bigEndian: boolean, seed: [number, number]): [number, number] {
  let [s0, s1] = seed;
  for (let offset = 0; offset + 8 <= data.length; offset += 8) {
    const x0 = bigEndian ? data.readUInt32BE(offset) : data.readUInt32LE(offset);
    const x1 = bigEndian ? data.readUInt32BE(offset + 4) : data.readUInt32LE(offset + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

interface WalIndex {
  pageSize: number;
  /** Page number → offset of its newest committed copy in the WAL. */
  frames: Map<number, number>;
  /** Database size in pages after the last commit, or 0 when nothing was committed. */
  pageCount: number;
}

// Frames count only up to the last commit frame whose salts and running checksum hold:
// a frame written after it, or left from an older WAL generation, is not data.
function indexWal(fd: number, size: number): WalIndex | null {
  if (size < WAL_HEADER_BYTES) return null;
  const header = readAt(fd, WAL_HEADER_BYTES, 0);
  const magic = header.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return null;
  const bigEndian = magic === 0x377f0683;
  const pageSize = header.readUInt32BE(8);
  if (!validPageSize(pageSize)) return null;
  let checksum = walChecksum(header.subarray(0, 24), bigEndian, [0, 0]);
  if (checksum[0] !== header.readUInt32BE(24) || checksum[1] !== header.readUInt32BE(28)) return null;
  const salt1 = header.readUInt32BE(16);
  const salt2 = header.readUInt32BE(20);
  const frames = new Map<number, number>();
  const pending = new Map<number, number>();
  let pageCount = 0;
  const frameBytes = WAL_FRAME_HEADER_BYTES + pageSize;
  for (let offset = WAL_HEADER_BYTES; offset + frameBytes <= size; offset += frameBytes) {
    const frame = readAt(fd, frameBytes, offset);
    if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
    checksum = walChecksum(frame.subarray(0, 8), bigEndian, checksum);
    checksum = walChecksum(frame.subarray(WAL_FRAME_HEADER_BYTES), bigEndian, checksum);
    if (checksum[0] !== frame.readUInt32BE(16) || checksum[1] !== frame.readUInt32BE(20)) break;
    pending.set(frame.readUInt32BE(0), offset + WAL_FRAME_HEADER_BYTES);
    const commitSize = frame.readUInt32BE(4);
    if (commitSize > 0) {
      for (const [page, at] of pending) frames.set(page, at);
      pending.clear();
      pageCount = commitSize;
    }
  }
  return { pageSize, frames, pageCount };
}

/** Read access to every page of a SQLite database as its last commit left it. */
export class PageFile {
  /** Bytes per page. */
  readonly pageSize: number;
  /** Bytes of each page that hold data (the page size minus the reserved tail). */
  readonly usableSize: number;
  /** Pages in the database (from the WAL's last commit, else the file's size). */
  readonly pageCount: number;
  /** How text values are encoded. */
  readonly encoding: TextEncodingName;
  /** Whether the file's 100-byte header (or the WAL's copy of page 1) is intact. */
  readonly headerValid: boolean;
  /** Committed pages taken from the WAL. */
  readonly walPages: number;
  readonly #main: number | null;
  readonly #mainBytes: number;
  readonly #wal: number | null;
  readonly #walFrames: Map<number, number>;

  private constructor(main: number | null, wal: number | null) {
    this.#main = main;
    this.#wal = wal;
    this.#mainBytes = main === null ? 0 : fstatSync(main).size;
    const walIndex = wal === null ? null : indexWal(wal, fstatSync(wal).size);
    this.#walFrames = walIndex?.frames ?? new Map();
    this.walPages = this.#walFrames.size;
    const mainHeader = main === null ? Buffer.alloc(0) : readAt(main, HEADER_BYTES, 0);
    // A damaged header falls back to the WAL's page size, then to SQLite's default.
    this.pageSize = walIndex?.pageSize ?? headerPageSize(mainHeader) ?? DEFAULT_PAGE_SIZE;
    this.pageCount =
      walIndex && walIndex.pageCount > 0 ? walIndex.pageCount : Math.floor(this.#mainBytes / this.pageSize);
    const first = this.page(1);
    const header = first && hasSqliteMagic(first) ? first : mainHeader;
    this.headerValid = headerPageSize(header) === this.pageSize;
    const reserved = this.headerValid ? header[20]! : 0;
    this.usableSize = this.pageSize - reserved;
    const encoding = this.headerValid ? header.readUInt32BE(56) : 1;
    this.encoding = encoding === 2 ? 'utf-16le' : encoding === 3 ? 'utf-16be' : 'utf-8';
  }

  /**
   * Open `path` and `<path>-wal` for reading; either may be missing (a WAL left beside a
   * deleted file still holds its commits), not both. Close it when done.
   */
  static open(path: string): PageFile {
    const tryOpen = (file: string) => {
      try {
        return openSync(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    };
    const wal = tryOpen(`${path}-wal`);
    let main: number | null;
    try {
      main = tryOpen(path) ?? (wal === null ? openSync(path, 'r') : null);
    } catch (error) {
      if (wal !== null) closeSync(wal);
      throw error;
    }
    try {
      return new PageFile(main, wal);
    } catch (error) {
      if (main !== null) closeSync(main);
      if (wal !== null) closeSync(wal);
      throw error;
    }
  }

  /** The effective 100-byte database header (page 1's start), when intact. */
  header(): Buffer | null {
    const first = this.page(1);
    return first && this.headerValid ? first.subarray(0, HEADER_BYTES) : null;
  }

  /** Page `number` (1-based), or undefined when it is out of range or lies past the end of the file. */
  page(number: number): Buffer | undefined {
    if (!Number.isInteger(number) || number < 1 || number > this.pageCount) return undefined;
    const inWal = this.#walFrames.get(number);
    if (inWal !== undefined && this.#wal !== null) return readAt(this.#wal, this.pageSize, inWal);
    const offset = (number - 1) * this.pageSize;
    if (this.#main === null || offset + this.pageSize > this.#mainBytes) return undefined;
    return readAt(this.#main, this.pageSize, offset);
  }

  /** Pages on the freelist: deleted data that salvage must not bring back. */
  freePages(): Set<number> {
    const free = new Set<number>();
    const header = this.header();
    if (!header) return free;
    let trunk = header.readUInt32BE(32);
    const seen = new Set<number>();
    while (trunk !== 0 && !seen.has(trunk)) {
      seen.add(trunk);
      const page = this.page(trunk);
      if (!page) break;
      free.add(trunk);
      const count = Math.min(page.readUInt32BE(4), this.usableSize / 4 - 2);
      for (let index = 0; index < count; index++) free.add(page.readUInt32BE(8 + index * 4));
      trunk = page.readUInt32BE(0);
    }
    return free;
  }

  /**
   * The whole database as one buffer, WAL applied, with the header switched from WAL to
   * rollback mode: what SQLite can open from memory when it cannot open the file itself.
   */
  image(): Buffer {
    const image = Buffer.alloc(this.pageCount * this.pageSize);
    for (let number = 1; number <= this.pageCount; number++) {
      this.page(number)?.copy(image, (number - 1) * this.pageSize);
    }
    if (hasSqliteMagic(image)) {
      image[18] = 1;
      image[19] = 1;
    }
    return image;
  }

  /** Release the file handles. */
  close(): void {
    if (this.#main !== null) closeSync(this.#main);
    if (this.#wal !== null) closeSync(this.#wal);
  }
}
