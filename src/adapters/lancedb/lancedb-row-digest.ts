import type { MemoryRow } from './lancedb-rows.js';

// A 32-bit FNV-1a digest of the memory columns memoir's index holds (all but the vector), which
// a catch-up compares row by row with what the index holds to find the rows another process
// changed. Hashed over the columns' bytes as LanceDB returns them (UTF-8 text, float64 times),
// so a catch-up over a whole table decodes no text but the ids: at 100k rows, decoding seven
// text columns per row to hash them took longer than reading them.

/** The columns digested, in the order they are fed: text first, then the flag, then times. */
const TEXT_COLUMNS = [
  'lexical_terms',
  'kind',
  'category',
  'agent_id',
  'user_id',
  'namespace',
  'source_session',
] as const;
const TIME_COLUMNS = ['occurred_at', 'valid_from', 'valid_to'] as const;

/** The fields a digest covers. */
export type DigestedFields = Pick<
  MemoryRow,
  (typeof TEXT_COLUMNS)[number] | (typeof TIME_COLUMNS)[number] | 'bookmarked'
>;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** Ends a field: 0xff is never a byte of UTF-8, so no text can run into the next field. */
const FIELD_END = 0xff;
const ABSENT = 0;
const PRESENT = 1;

const encoder = new TextEncoder();
const time = new Float64Array(1);
const timeBytes = new Uint8Array(time.buffer);

function mix(hash: number, byte: number): number {
  return Math.imul(hash ^ byte, FNV_PRIME);
}

function mixBytes(hash: number, bytes: Uint8Array, start: number, end: number): number {
  let h = hash;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return h;
}

function mixText(hash: number, text: string | null | undefined): number {
  if (text === null || text === undefined) return mix(mix(hash, ABSENT), FIELD_END);
  const bytes = encoder.encode(text);
  return mix(mixBytes(mix(hash, PRESENT), bytes, 0, bytes.length), FIELD_END);
}

function mixTime(hash: number, value: number | null | undefined): number {
  if (value === null || value === undefined) return mix(mix(hash, ABSENT), FIELD_END);
  time[0] = value;
  return mix(mixBytes(mix(hash, PRESENT), timeBytes, 0, 8), FIELD_END);
}

/** The digest of one row's fields (a row the store writes). */
export function digestOfRow(row: DigestedFields): number {
  let hash = FNV_OFFSET;
  for (const name of TEXT_COLUMNS) hash = mixText(hash, row[name]);
  hash = mix(mix(hash, row.bookmarked ? 1 : 0), FIELD_END);
  for (const name of TIME_COLUMNS) hash = mixTime(hash, row[name]);
  return hash | 0;
}

/** A column of an Arrow record batch, as far as the digest reads it. */
interface DigestColumn {
  get(index: number): unknown;
  isValid(index: number): boolean;
  data: ReadonlyArray<{ valueOffsets?: unknown; values?: unknown }>;
}

/** A record batch holding every digested column. */
export interface DigestBatch {
  numRows: number;
  getChild(name: string): unknown;
}

/**
 * The digest of every row of `batch`, equal to {@link digestOfRow} of the same values. Text is
 * hashed from the batch's UTF-8 buffer and times from its float64 buffer where the column is one
 * plain buffer (as LanceDB returns it); any other layout is read value by value.
 */
export function digestBatch(batch: DigestBatch): Int32Array {
  const rows = batch.numRows;
  const hashes = new Int32Array(rows).fill(FNV_OFFSET);
  const column = (name: string) => batch.getChild(name) as DigestColumn;
  for (const name of TEXT_COLUMNS) {
    const texts = column(name);
    const data = texts.data.length === 1 ? texts.data[0] : undefined;
    const offsets = data?.valueOffsets;
    const bytes = data?.values;
    const plain = offsets instanceof Int32Array && bytes instanceof Uint8Array;
    for (let i = 0; i < rows; i++) {
      if (!plain) hashes[i] = mixText(hashes[i]!, texts.get(i) as string | null);
      else if (!texts.isValid(i)) hashes[i] = mix(mix(hashes[i]!, ABSENT), FIELD_END);
      else hashes[i] = mix(mixBytes(mix(hashes[i]!, PRESENT), bytes, offsets[i]!, offsets[i + 1]!), FIELD_END);
    }
  }
  const bookmarked = column('bookmarked');
  for (let i = 0; i < rows; i++) hashes[i] = mix(mix(hashes[i]!, bookmarked.get(i) ? 1 : 0), FIELD_END);
  for (const name of TIME_COLUMNS) {
    const times = column(name);
    const data = times.data.length === 1 ? times.data[0] : undefined;
    const values = data?.values instanceof Float64Array ? data.values : undefined;
    for (let i = 0; i < rows; i++) {
      const value = !times.isValid(i) ? null : values ? values[i]! : Number(times.get(i));
      hashes[i] = mixTime(hashes[i]!, value);
    }
  }
  return hashes;
}
