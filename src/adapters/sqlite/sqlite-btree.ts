/**
 * Table b-trees read straight from pages (https://www.sqlite.org/fileformat2.html): leaf
 * cells decoded into rows, interior pages followed to their children. Every read is
 * bounds-checked and throws on nonsense, so one bad cell or page costs only itself.
 */
import type { PageFile } from './sqlite-pages.js';

/** A column value as stored. */
export type SqlValue = null | number | bigint | string | Uint8Array;

/** One row of a table b-tree. */
export interface RawRow {
  /** The row's rowid (the cell's key). */
  rowid: number;
  /** The record's values in column order; columns added later may be missing at the end. */
  values: SqlValue[];
}

const TABLE_LEAF = 0x0d;
const TABLE_INTERIOR = 0x05;

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public offset: number,
  ) {}

  byte(): number {
    if (this.offset >= this.bytes.length) throw new RangeError('read past the end of the page');
    return this.bytes[this.offset++]!;
  }

  // A varint is 1–9 bytes, big-endian, 7 bits per byte with the high bit meaning "more";
  // the ninth byte carries 8 bits. Numbers stay exact up to 2^53, plenty for sizes and rowids.
  varint(): number {
    let value = 0;
    for (let index = 0; index < 8; index++) {
      const byte = this.byte();
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    return value * 256 + this.byte();
  }
}

/** Byte offset of the b-tree header on page `number` (page 1 starts with the file header). */
function headerOffset(number: number): number {
  return number === 1 ? 100 : 0;
}

/** True when `number` looks like a table leaf page: right type, sane cell count and content start. */
export function isTableLeaf(file: PageFile, number: number): boolean {
  const page = file.page(number);
  if (!page) return false;
  const at = headerOffset(number);
  if (page[at] !== TABLE_LEAF) return false;
  const cells = page.readUInt16BE(at + 3);
  return at + 8 + cells * 2 <= file.usableSize;
}

function cellPointers(file: PageFile, page: Buffer, at: number, headerBytes: number): number[] {
  const count = page.readUInt16BE(at + 3);
  const start = at + headerBytes;
  if (start + count * 2 > file.usableSize) throw new RangeError('cell count overruns the page');
  const pointers: number[] = [];
  for (let index = 0; index < count; index++) {
    const pointer = page.readUInt16BE(start + index * 2);
    if (pointer < start + count * 2 || pointer >= file.usableSize) throw new RangeError('cell pointer out of range');
    pointers.push(pointer);
  }
  return pointers;
}

/** Children of a table interior page, left to right; [] for a leaf. Throws when it is neither. */
export function childPages(file: PageFile, number: number): number[] {
  const page = file.page(number);
  if (!page) throw new RangeError(`page ${number} is missing`);
  const at = headerOffset(number);
  if (page[at] === TABLE_LEAF) return [];
  if (page[at] !== TABLE_INTERIOR) throw new RangeError(`page ${number} is not a table b-tree page`);
  const children = cellPointers(file, page, at, 12).map((pointer) => page.readUInt32BE(pointer));
  children.push(page.readUInt32BE(at + 8));
  return children;
}

// How much of a payload sits on the leaf page itself; the rest follows in overflow pages.
function localBytes(payload: number, usable: number): number {
  const maxLocal = usable - 35;
  if (payload <= maxLocal) return payload;
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  const local = minLocal + ((payload - minLocal) % (usable - 4));
  return local <= maxLocal ? local : minLocal;
}

function readPayload(file: PageFile, page: Buffer, reader: Reader, size: number): Uint8Array {
  const local = localBytes(size, file.usableSize);
  const start = reader.offset;
  if (start + local > file.usableSize) throw new RangeError('cell overruns the page');
  const payload = new Uint8Array(size);
  payload.set(page.subarray(start, start + local));
  if (local === size) return payload;
  let next = page.readUInt32BE(start + local);
  let done = local;
  const seen = new Set<number>();
  while (done < size) {
    const overflow = next === 0 || seen.has(next) ? undefined : file.page(next);
    if (!overflow) throw new RangeError('overflow chain is broken');
    seen.add(next);
    const take = Math.min(size - done, file.usableSize - 4);
    payload.set(overflow.subarray(4, 4 + take), done);
    done += take;
    next = overflow.readUInt32BE(0);
  }
  return payload;
}

function decodeText(bytes: Uint8Array, encoding: PageFile['encoding']): string {
  // fatal: a text value that is not valid in its encoding is damage, not data.
  return new TextDecoder(encoding === 'utf-16be' ? 'utf-16be' : encoding, { fatal: true }).decode(bytes);
}

function readInteger(bytes: Uint8Array, offset: number, length: number): number | bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, length);
  if (length === 8) {
    const big = view.getBigInt64(0);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  let value = 0;
  for (let index = 0; index < length; index++) value = value * 256 + bytes[offset + index]!;
  // Two's complement: up to 48 bits stay exact in a double.
  if (bytes[offset]! & 0x80) value -= 256 ** length;
  return value;
}

const INTEGER_BYTES = [0, 1, 2, 3, 4, 6, 8] as const;

/** Decode a record (header of serial types, then the values). */
export function decodeRecord(payload: Uint8Array, encoding: PageFile['encoding']): SqlValue[] {
  const header = new Reader(payload, 0);
  const headerSize = header.varint();
  if (headerSize > payload.length || headerSize < header.offset) throw new RangeError('record header out of range');
  const values: SqlValue[] = [];
  let body = headerSize;
  while (header.offset < headerSize) {
    const type = header.varint();
    let length: number;
    if (type === 0 || type === 8 || type === 9) length = 0;
    else if (type <= 6) length = INTEGER_BYTES[type]!;
    else if (type === 7) length = 8;
    else if (type >= 12) length = Math.floor((type - 12) / 2);
    else throw new RangeError(`reserved serial type ${type}`);
    if (body + length > payload.length) throw new RangeError('record value out of range');
    if (type === 0) values.push(null);
    else if (type === 8) values.push(0);
    else if (type === 9) values.push(1);
    else if (type <= 6) values.push(readInteger(payload, body, length));
    else if (type === 7) values.push(new DataView(payload.buffer, payload.byteOffset + body, 8).getFloat64(0));
    else if (type % 2 === 0) values.push(payload.slice(body, body + length));
    else values.push(decodeText(payload.subarray(body, body + length), encoding));
    body += length;
  }
  if (body !== payload.length) throw new RangeError('record length does not match its header');
  return values;
}

/**
 * The rows on a table leaf page. Cells that do not decode are counted in `bad` and left
 * out; the others are returned.
 */
export function leafRows(file: PageFile, number: number): { rows: RawRow[]; bad: number } {
  const page = file.page(number);
  if (!page) return { rows: [], bad: 0 };
  const at = headerOffset(number);
  if (page[at] !== TABLE_LEAF) return { rows: [], bad: 0 };
  let pointers: number[];
  try {
    pointers = cellPointers(file, page, at, 8);
  } catch {
    return { rows: [], bad: 1 };
  }
  const rows: RawRow[] = [];
  let bad = 0;
  for (const pointer of pointers) {
    try {
      const reader = new Reader(page, pointer);
      const size = reader.varint();
      const rowid = reader.varint();
      rows.push({ rowid, values: decodeRecord(readPayload(file, page, reader, size), file.encoding) });
    } catch {
      bad += 1;
    }
  }
  return { rows, bad };
}

/**
 * The leaf pages of the table b-tree rooted at `root`, and how many pages it points to
 * that are missing or not b-tree pages (those subtrees are lost to this walk).
 */
export function treeLeaves(file: PageFile, root: number, seen: Set<number>): { leaves: number[]; lost: number } {
  const leaves: number[] = [];
  let lost = 0;
  const stack = [root];
  while (stack.length > 0) {
    const number = stack.pop()!;
    if (seen.has(number)) continue;
    let children: number[];
    try {
      children = childPages(file, number);
    } catch {
      lost += 1;
      continue;
    }
    seen.add(number);
    if (children.length === 0) leaves.push(number);
    else for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return { leaves, lost };
}
