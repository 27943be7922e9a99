/**
 * Export and import of a store as JSON Lines (`memoir-jsonl`, version 1).
 *
 * The first line is a header naming the embedder the vectors came from; then one line
 * per memory (with its embedding as base64 of little-endian float32 bytes), then one
 * line per opinion, procedure, session and entity. Every object is written with its keys
 * sorted, so exporting what was imported reproduces the file byte for byte (lines may
 * come out in another order only when the source file's order differed).
 *
 * This module works on strings and iterables; reading and writing files is the caller's job.
 *
 * @module
 */
import { z } from 'zod';
import { scopeMatches } from '../search/memory-filter.js';
import { isEmptyScope } from '../search/scope-boundary.js';
import { ValidationError, type ValidationIssue } from '../spec/errors.js';
import { memorySchema, type Scope } from '../spec/memory.js';
import { entitySchema, opinionSchema, procedureSchema, sessionSchema } from '../spec/records.js';
import type { EmbedderIdentity, MemoryFilter, MemoryRecord, MemoryStore, RecordCollection } from '../spec/store.js';
import { toValidationIssues } from '../utils/validate.js';

const COMPONENT = 'import';
const FORMAT = 'memoir-jsonl';
const VERSION = 1;
const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_BATCH_SIZE = 1000;

/** The record collections of a store, in the order they are exported. */
const COLLECTIONS = [
  { type: 'opinion', key: 'opinions', schema: opinionSchema },
  { type: 'procedure', key: 'procedures', schema: procedureSchema },
  { type: 'session', key: 'sessions', schema: sessionSchema },
  { type: 'entity', key: 'entities', schema: entitySchema },
] as const;

type CollectionType = (typeof COLLECTIONS)[number]['type'];
type CollectionKey = (typeof COLLECTIONS)[number]['key'];
type AnyRecord = { id: string; scope: Scope };

/** Options of `exportRecords`. */
export interface ExportOptions {
  /**
   * Which memories to export. Its `scope` also selects the opinions, procedures, sessions
   * and entities; its other fields apply to memories only. Default: everything.
   */
  filter?: MemoryFilter;
  /**
   * The embedder the store's vectors were built with; written to the header. Without it
   * the header says `null` and embeddings are written as `null`, because no importer
   * could tell whether they fit its embedder.
   */
  embedder?: EmbedderIdentity;
  /** Called after each page with the lines written so far (header excluded) and the total expected. */
  onProgress?: (done: number, total: number) => void;
  /** Rows read from the store per call. Default 1000. */
  pageSize?: number;
}

/** Options of `importRecords`. */
export interface ImportOptions {
  /**
   * The embedder the target store uses. Embeddings are kept only when the file's header
   * names this same id and dimensions; otherwise memories are imported without them
   * (counted in `skippedEmbeddings`) and need a reindex.
   */
  embedder: EmbedderIdentity;
  /** Called after each committed batch with the number of memories and records written so far. */
  onProgress?: (done: number) => void;
  /** Memories and records per transaction. Default 1000. */
  batchSize?: number;
  /**
   * Accept only memories and records within this scope (every field it names equal), and
   * refuse any that would replace one of another scope. Default: no limit.
   */
  scope?: Scope;
}

/** What `importRecords` resolves to. */
export interface ImportResult {
  /** Memories written. */
  memories: number;
  /** Opinions, procedures, sessions and entities written. */
  records: number;
  /** Memories whose embedding was dropped because the file came from another embedder. */
  skippedEmbeddings: number;
}

// ---------------------------------------------------------------------------
// Canonical JSON

/**
 * JSON with every object's keys sorted (by UTF-16 code units), recursively, and no
 * whitespace. Equal data always gives the same text. Like `JSON.stringify`, it drops
 * object properties whose value is `undefined`, writes `undefined` array items as `null`,
 * and honours `toJSON`.
 *
 * @throws TypeError for a non-finite number, a bigint or a circular structure.
 */
export function canonicalJson(value: unknown): string {
  return writeCanonical(value, new Set());
}

function writeCanonical(value: unknown, ancestors: Set<object>): string {
  if (value === null) return 'null';
  if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return writeCanonical((value as { toJSON: () => unknown }).toJSON(), ancestors);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: cannot write the number ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (ancestors.has(value)) throw new TypeError('canonicalJson: circular structure');
      ancestors.add(value);
      let text: string;
      if (Array.isArray(value)) {
        text = `[${value.map((item) => (item === undefined || typeof item === 'function' ? 'null' : writeCanonical(item, ancestors))).join(',')}]`;
      } else {
        const record = value as Record<string, unknown>;
        const parts: string[] = [];
        for (const key of Object.keys(record).sort()) {
          const item = record[key];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          parts.push(`${JSON.stringify(key)}:${writeCanonical(item, ancestors)}`);
        }
        text = `{${parts.join(',')}}`;
      }
      ancestors.delete(value);
      return text;
    }
    default:
      throw new TypeError(`canonicalJson: cannot write a ${typeof value}`);
  }
}

// ---------------------------------------------------------------------------
// Base64 of float32 vectors

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64_ALPHABET.length; i++) BASE64_VALUES[BASE64_ALPHABET.charCodeAt(i)] = i;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      BASE64_ALPHABET[n >> 18]! +
      BASE64_ALPHABET[(n >> 12) & 63]! +
      BASE64_ALPHABET[(n >> 6) & 63]! +
      BASE64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${BASE64_ALPHABET[n >> 18]!}${BASE64_ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${BASE64_ALPHABET[n >> 18]!}${BASE64_ALPHABET[(n >> 12) & 63]!}${BASE64_ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** Strict decoding: padded, standard alphabet, nothing else; null when the text isn't that. */
function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const code = text.charCodeAt(i + j);
      const isPadding = code === 61 && i + 4 === text.length && j >= 4 - padding;
      const digit = isPadding ? 0 : code < 128 ? BASE64_VALUES[code]! : -1;
      if (digit < 0) return null;
      n = (n << 6) | digit;
    }
    if (at < bytes.length) bytes[at++] = (n >> 16) & 255;
    if (at < bytes.length) bytes[at++] = (n >> 8) & 255;
    if (at < bytes.length) bytes[at++] = n & 255;
  }
  return bytes;
}

// Byte copies rather than DataView floats, so every bit (NaN payloads included) survives.
function swapWords(bytes: Uint8Array): void {
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const [a, b, c, d] = [bytes[i]!, bytes[i + 1]!, bytes[i + 2]!, bytes[i + 3]!];
    bytes[i] = d;
    bytes[i + 1] = c;
    bytes[i + 2] = b;
    bytes[i + 3] = a;
  }
}

/** Base64 of a vector's float32 values, little-endian. */
export function encodeEmbedding(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
  if (!LITTLE_ENDIAN) swapWords(bytes);
  return encodeBase64(bytes);
}

/** The vector written by `encodeEmbedding`, or null when `text` is not base64 of `dimensions` floats. */
export function decodeEmbedding(text: string, dimensions: number): Float32Array | null {
  const bytes = decodeBase64(text);
  if (!bytes || bytes.length !== dimensions * 4) return null;
  if (!LITTLE_ENDIAN) swapWords(bytes);
  return new Float32Array(bytes.buffer, 0, dimensions);
}

// ---------------------------------------------------------------------------
// Export

function headerLine(embedder: EmbedderIdentity | undefined): string {
  const identity = embedder ? canonicalJson({ id: embedder.id, dimensions: embedder.dimensions }) : 'null';
  return `{"type":"header","format":"${FORMAT}","version":${VERSION},"embedder":${identity}}`;
}

function memoryLine(record: MemoryRecord): string {
  const embedding = record.embedding ? JSON.stringify(encodeEmbedding(record.embedding)) : 'null';
  return `{"type":"memory","memory":${canonicalJson(record.memory)},"embedding":${embedding}}`;
}

function recordLine(type: CollectionType, record: AnyRecord): string {
  return `{"type":"${type}","record":${canonicalJson(record)}}`;
}

async function countRecords(store: MemoryStore, filter: MemoryFilter | undefined, pageSize: number) {
  const scope = filter?.scope;
  if (isEmptyScope(scope)) {
    const stats = await store.stats();
    return stats.opinions + stats.procedures + stats.sessions + stats.entities;
  }
  let total = 0;
  for (const { key } of COLLECTIONS) {
    for (let offset = 0; ; offset += pageSize) {
      const page = await (store[key] as RecordCollection<AnyRecord>).list({ scope, limit: pageSize, offset });
      total += page.length;
      if (page.length < pageSize) break;
    }
  }
  return total;
}

/** One line of an export and what it holds. */
export interface ExportedLine {
  /** What the line holds. */
  type: 'header' | 'memory' | 'opinion' | 'procedure' | 'session' | 'entity';
  /** The line, without a trailing newline. */
  text: string;
}

/**
 * {@link exportRecords}, with each line's type beside it, so a caller can tally the lines
 * without parsing them again.
 */
export async function* exportLines(store: MemoryStore, options: ExportOptions = {}): AsyncGenerator<ExportedLine> {
  const { filter, embedder, onProgress } = options;
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE));
  const total = onProgress ? (await store.countMemories(filter)) + (await countRecords(store, filter, pageSize)) : 0;
  let done = 0;
  const progress = () => onProgress?.(done, Math.max(total, done));

  yield { type: 'header', text: headerLine(embedder) };
  for (let offset = 0; ; offset += pageSize) {
    const page = await store.listMemories({ filter, orderBy: 'createdAt', direction: 'asc', limit: pageSize, offset });
    const embeddings = embedder && page.length > 0 ? await store.getEmbeddings(page.map((memory) => memory.id)) : null;
    for (const memory of page) {
      yield { type: 'memory', text: memoryLine({ memory, embedding: embeddings?.get(memory.id) ?? null }) };
      done += 1;
    }
    if (page.length > 0) progress();
    if (page.length < pageSize) break;
  }
  for (const { type, key } of COLLECTIONS) {
    const collection = store[key] as RecordCollection<AnyRecord>;
    for (let offset = 0; ; offset += pageSize) {
      const page = await collection.list({ scope: filter?.scope, limit: pageSize, offset });
      for (const record of page) {
        yield { type, text: recordLine(type, record) };
        done += 1;
      }
      if (page.length > 0) progress();
      if (page.length < pageSize) break;
    }
  }
}

/**
 * Export a store as JSON Lines, one line per yielded string (without a trailing newline):
 * a header, the memories (oldest `createdAt` first, ties by id) with their embeddings,
 * then opinions, procedures, sessions and entities (each by id).
 *
 * Pages are read one after another without a transaction; writes made while exporting
 * may or may not be included.
 *
 * @example
 * ```ts
 * for await (const line of exportRecords(store, { embedder })) out.write(`${line}\n`);
 * ```
 */
export async function* exportRecords(store: MemoryStore, options: ExportOptions = {}): AsyncGenerator<string> {
  for await (const line of exportLines(store, options)) yield line.text;
}

// ---------------------------------------------------------------------------
// Import

const headerSchema = z.object({
  type: z.literal('header'),
  format: z.literal(FORMAT, `expected "${FORMAT}"`),
  version: z.number().int().positive(),
  embedder: z.object({ id: z.string().min(1), dimensions: z.number().int().positive() }).nullable(),
});

const memoryLineSchema = z.object({
  type: z.literal('memory'),
  memory: memorySchema,
  embedding: z.string().nullable(),
});

const recordLineSchemas = new Map<string, z.ZodType<{ record: AnyRecord }>>(
  COLLECTIONS.map(({ type, schema }) => [type, z.object({ type: z.literal(type), record: schema })]),
);

const LINE_TYPES = ['header', 'memory', ...COLLECTIONS.map(({ type }) => type)];

function lineError(lineNumber: number, issues: readonly ValidationIssue[], suggestion?: string): ValidationError {
  const where = `line ${lineNumber}`;
  return new ValidationError(
    issues.map((issue) => ({ field: issue.field ? `${where}: ${issue.field}` : where, message: issue.message })),
    {
      component: COMPONENT,
      suggestion:
        suggestion ??
        'Fix or remove that line. Batches before it were imported; importing the file again is safe, since records are replaced by id.',
    },
  );
}

function parseLine<S extends z.ZodType>(schema: S, value: unknown, lineNumber: number): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw lineError(lineNumber, toValidationIssues(result.error, value, ''));
}

/** What `importRecords` reads: lines of text (sync or async), or a whole file as one string. */
export type ImportLines = AsyncIterable<string> | Iterable<string>;

function isIterable(value: unknown): value is ImportLines {
  if (typeof value === 'string') return true;
  if (typeof value !== 'object' || value === null) return false;
  return (
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function' ||
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** Schema of the `lines` argument of `importRecords` and the client's `import()`. */
export const importLinesSchema = z.custom<ImportLines>(
  isIterable,
  'expected lines of text: an iterable or async iterable of strings, or the whole file as one string',
);

/** Each item is a line; an item holding several lines (a whole file as one string) is split. */
async function* physicalLines(lines: ImportLines): AsyncGenerator<string> {
  if (typeof lines === 'string') {
    yield* lines.split('\n');
    return;
  }
  for await (const item of lines) {
    if (typeof item !== 'string') {
      throw new ValidationError([{ field: 'lines', message: `expected strings (got ${typeof item})` }], {
        component: COMPONENT,
        suggestion: 'Pass the file as lines of text, e.g. from readline or text.split("\\n").',
      });
    }
    if (item.includes('\n')) yield* item.split('\n');
    else yield item;
  }
}

interface PendingBatch {
  memories: { record: MemoryRecord; line: number }[];
  records: Map<CollectionKey, { record: AnyRecord; line: number }[]>;
  size: number;
}

const emptyBatch = (): PendingBatch => ({ memories: [], records: new Map(), size: 0 });

function outsideScope(line: number, field: string, scope: Scope, found: Scope): ValidationError {
  return lineError(
    line,
    [{ field, message: `expected a scope within ${JSON.stringify(scope)} (got ${JSON.stringify(found)})` }],
    'A scoped client imports only its own scope. Batches before this line were imported; import the file with an unscoped (admin) client, or remove the line.',
  );
}

/** Each id with the first line that holds it. */
function firstLines(pairs: readonly [string, number][]): Map<string, number> {
  const lines = new Map<string, number>();
  for (const [id, line] of pairs) if (!lines.has(id)) lines.set(id, line);
  return lines;
}

/** Refuse a batch that would replace, by id, a memory or record of another scope. */
async function checkIdsInScope(store: MemoryStore, batch: PendingBatch, scope: Scope): Promise<void> {
  const lineOf = firstLines(batch.memories.map(({ record, line }) => [record.memory.id, line]));
  for (const existing of await store.getMemories([...lineOf.keys()])) {
    if (!scopeMatches(existing.scope, scope)) {
      throw lineError(lineOf.get(existing.id)!, [
        { field: 'memory.id', message: "expected an id not already used outside this client's scope" },
      ]);
    }
  }
  for (const [key, pending] of batch.records) {
    const lines = firstLines(pending.map(({ record, line }) => [record.id, line]));
    for (const existing of await (store[key] as RecordCollection<AnyRecord>).get([...lines.keys()])) {
      if (!scopeMatches(existing.scope, scope)) {
        throw lineError(lines.get(existing.id)!, [
          { field: 'record.id', message: "expected an id not already used outside this client's scope" },
        ]);
      }
    }
  }
}

/**
 * Import JSON Lines written by `exportRecords`. Every non-empty line is validated
 * against the model schemas; memories and records are upserted by id in batches, each in
 * one transaction. A bad line rejects with a ValidationError naming `line N` and the field,
 * and nothing from its batch is written (earlier batches stay).
 *
 * Memories, opinions, procedures, sessions and entities are stored exactly as written,
 * counts included; no tallies are recomputed. The store must already be open (a memory
 * client opens it on its first call).
 *
 * With `scope`, every memory and record must lie within it, and none may replace (by id)
 * one of another scope: such a line is refused like a malformed one.
 *
 * @throws ValidationError for `lines` that are not lines of text, a line that is not JSON,
 * has an unknown `type`, fails its schema, lies outside `scope`, carries an embedding that
 * is not base64 of the header's dimensions, or a header anywhere but the first line.
 */
export async function importRecords(
  store: MemoryStore,
  lines: ImportLines,
  options: ImportOptions,
): Promise<ImportResult> {
  if (!isIterable(lines)) {
    throw new ValidationError(
      [{ field: 'lines', message: `${importLinesSchema.description ?? 'expected lines of text'}` }],
      { component: COMPONENT },
    );
  }
  const target = options.embedder;
  const scope = isEmptyScope(options.scope) ? undefined : options.scope;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
  const result: ImportResult = { memories: 0, records: 0, skippedEmbeddings: 0 };
  let batch = emptyBatch();
  let lineNumber = 0;
  let seenContent = false;
  // A file without a header can't say where its vectors came from, so they are dropped.
  let keepEmbeddings = false;
  let fileDimensions = 0;

  const flush = async () => {
    if (batch.size === 0) return;
    const pending = batch;
    await store.transaction(async () => {
      // Inside the transaction, so no other write slips in between the check and the upsert.
      if (scope) await checkIdsInScope(store, pending, scope);
      if (pending.memories.length > 0) await store.upsertMemories(pending.memories.map(({ record }) => record));
      for (const { key } of COLLECTIONS) {
        const records = pending.records.get(key);
        if (records && records.length > 0) {
          await (store[key] as RecordCollection<AnyRecord>).upsert(records.map(({ record }) => record));
        }
      }
    });
    result.memories += pending.memories.length;
    for (const records of pending.records.values()) result.records += records.length;
    batch = emptyBatch();
    options.onProgress?.(result.memories + result.records);
  };

  for await (const raw of physicalLines(lines)) {
    lineNumber += 1;
    const text = (lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw).replace(/\r$/, '');
    if (text.trim() === '') continue;

    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw lineError(lineNumber, [{ field: '', message: `not valid JSON (${(error as Error).message})` }]);
    }
    const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !LINE_TYPES.includes(type)) {
      throw lineError(lineNumber, [
        {
          field: 'type',
          message: `expected one of ${LINE_TYPES.map((name) => `"${name}"`).join(', ')} (got ${JSON.stringify(type) ?? 'nothing'})`,
        },
      ]);
    }

    if (type === 'header') {
      if (seenContent) {
        throw lineError(lineNumber, [{ field: 'type', message: 'a header is allowed only as the first line' }]);
      }
      const header = parseLine(headerSchema, value, lineNumber);
      if (header.version > VERSION) {
        throw lineError(
          lineNumber,
          [{ field: 'version', message: `expected version ${VERSION} or lower (got ${header.version})` }],
          'The file was written by a newer memoir; upgrade memoir to import it.',
        );
      }
      keepEmbeddings =
        header.embedder !== null &&
        header.embedder.id === target.id &&
        header.embedder.dimensions === target.dimensions;
      fileDimensions = header.embedder?.dimensions ?? 0;
      seenContent = true;
      continue;
    }
    seenContent = true;

    if (type === 'memory') {
      const line = parseLine(memoryLineSchema, value, lineNumber);
      if (scope && !scopeMatches(line.memory.scope, scope)) {
        throw outsideScope(lineNumber, 'memory.scope', scope, line.memory.scope);
      }
      let embedding: Float32Array | null = null;
      if (line.embedding !== null) {
        if (keepEmbeddings) {
          embedding = decodeEmbedding(line.embedding, fileDimensions);
          if (!embedding) {
            throw lineError(lineNumber, [
              {
                field: 'embedding',
                message: `expected base64 of ${fileDimensions} little-endian float32 values (${fileDimensions * 4} bytes)`,
              },
            ]);
          }
        } else {
          result.skippedEmbeddings += 1;
        }
      }
      batch.memories.push({ record: { memory: line.memory, embedding }, line: lineNumber });
    } else {
      const collection = COLLECTIONS.find((entry) => entry.type === type)!;
      const line = parseLine(recordLineSchemas.get(collection.type)!, value, lineNumber);
      if (scope && !scopeMatches(line.record.scope, scope)) {
        throw outsideScope(lineNumber, 'record.scope', scope, line.record.scope);
      }
      const pending = batch.records.get(collection.key) ?? [];
      pending.push({ record: line.record, line: lineNumber });
      batch.records.set(collection.key, pending);
    }
    batch.size += 1;
    if (batch.size >= batchSize) await flush();
  }
  await flush();
  return result;
}
