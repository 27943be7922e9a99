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
import { memoryPages, pagesOf } from '../utils/pages.js';
import { toValidationIssues } from '../utils/validate.js';
import { canonicalJson, decodeEmbedding, encodeEmbedding } from './transfer-encoding.js';

export { canonicalJson, decodeEmbedding, encodeEmbedding } from './transfer-encoding.js';

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

/**
 * What `importRecords` resolves to.
 *
 * @group Backups and maintenance
 */
export interface ImportResult {
  /** Memories written. */
  memories: number;
  /** Opinions, procedures, sessions and entities written. */
  records: number;
  /** Memories whose embedding was dropped because the file came from another embedder. */
  skippedEmbeddings: number;
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
    const collection = store[key] as RecordCollection<AnyRecord>;
    for await (const page of pagesOf((offset, limit) => collection.list({ scope, limit, offset }), pageSize)) {
      total += page.length;
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
  for await (const page of memoryPages(store, filter, pageSize)) {
    const embeddings = embedder ? await store.getEmbeddings(page.map((memory) => memory.id)) : null;
    for (const memory of page) {
      yield { type: 'memory', text: memoryLine({ memory, embedding: embeddings?.get(memory.id) ?? null }) };
      done += 1;
    }
    progress();
  }
  for (const { type, key } of COLLECTIONS) {
    const collection = store[key] as RecordCollection<AnyRecord>;
    const list = (offset: number, limit: number) => collection.list({ scope: filter?.scope, limit, offset });
    for await (const page of pagesOf(list, pageSize)) {
      for (const record of page) {
        yield { type, text: recordLine(type, record) };
        done += 1;
      }
      progress();
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
