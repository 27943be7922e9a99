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
import type { EmbedderIdentity, MemoryFilter, MemoryRecord } from '../spec/store.js';
import { type CoreStore, coreStore, type RecordCollection, type StoreLike } from '../store/store-facade.js';
import { memoryPages, pagesOf } from '../utils/pages.js';
import { toValidationIssues } from '../utils/validate.js';
import { type BulkWriter, changeAtomically } from './atomic-change.js';
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
  /**
   * Called after each batch with the number of memories and records written so far; they are
   * applied together once the whole file was read.
   */
  onProgress?: (done: number) => void;
  /** Memories and records per write. Default 1000. */
  batchSize?: number;
  /**
   * What a bad line does. `reject` (default): the import rejects naming the line and nothing of
   * the file is written. `skip`: the line is left out, counted in `skippedLines` and described
   * in `invalidLines`; the good lines are imported.
   */
  onInvalid?: 'reject' | 'skip';
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
  /** Lines left out as invalid; always 0 unless `onInvalid: 'skip'` was passed. */
  skippedLines: number;
  /** Why lines were left out: the first 100 skipped lines, in order, each with its problems. */
  invalidLines: ImportInvalidLine[];
}

/**
 * A line an import left out, in {@link ImportResult.invalidLines}.
 *
 * @group Backups and maintenance
 */
export interface ImportInvalidLine {
  /** 1-based line number in the file. */
  line: number;
  /** What is wrong with it: each field (prefixed with `line N`) and what it expects. */
  issues: ValidationIssue[];
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

async function countRecords(store: CoreStore, filter: MemoryFilter | undefined, pageSize: number) {
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
export async function* exportLines(given: StoreLike, options: ExportOptions = {}): AsyncGenerator<ExportedLine> {
  const store = coreStore(given);
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
export async function* exportRecords(store: StoreLike, options: ExportOptions = {}): AsyncGenerator<string> {
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
        'Fix or remove that line; nothing was imported. To import the good lines and skip the bad ones, pass { onInvalid: "skip" }.',
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
  memories: { record: MemoryRecord; line: number; skippedEmbedding: boolean }[];
  records: Map<CollectionKey, { record: AnyRecord; line: number }[]>;
  size: number;
}

const emptyBatch = (): PendingBatch => ({ memories: [], records: new Map(), size: 0 });

function outsideScope(line: number, field: string, scope: Scope, found: Scope): ValidationError {
  return lineError(
    line,
    [{ field, message: `expected a scope within ${JSON.stringify(scope)} (got ${JSON.stringify(found)})` }],
    'A scoped client imports only its own scope; nothing was imported. Import the file with an unscoped (admin) client, or remove the line.',
  );
}

/** Each id with the first line that holds it. */
function firstLines(pairs: readonly [string, number][]): Map<string, number> {
  const lines = new Map<string, number>();
  for (const [id, line] of pairs) if (!lines.has(id)) lines.set(id, line);
  return lines;
}

/**
 * The lines of a batch that would replace, by id, a memory or record of another scope, each
 * with its error. Read against the live store: what this import wrote before is in scope.
 */
async function foreignIdLines(
  store: CoreStore,
  batch: PendingBatch,
  scope: Scope,
): Promise<Map<number, ValidationError>> {
  const found = new Map<number, ValidationError>();
  const clash = (line: number, field: string) =>
    found.set(
      line,
      lineError(line, [{ field, message: "expected an id not already used outside this client's scope" }]),
    );
  const lineOf = firstLines(batch.memories.map(({ record, line }) => [record.memory.id, line]));
  for (const existing of await store.getMemories([...lineOf.keys()])) {
    if (!scopeMatches(existing.scope, scope)) {
      for (const { record, line } of batch.memories) if (record.memory.id === existing.id) clash(line, 'memory.id');
    }
  }
  for (const [key, pending] of batch.records) {
    const lines = firstLines(pending.map(({ record, line }) => [record.id, line]));
    for (const existing of await (store[key] as RecordCollection<AnyRecord>).get([...lines.keys()])) {
      if (!scopeMatches(existing.scope, scope)) {
        for (const { record, line } of pending) if (record.id === existing.id) clash(line, 'record.id');
      }
    }
  }
  return found;
}

/** How many skipped lines an import describes in {@link ImportResult.invalidLines}. */
export const MAX_REPORTED_INVALID_LINES = 100;

/** A fatal problem with the file as a whole (a newer version): never skipped. */
class FatalLine {
  constructor(readonly error: ValidationError) {}
}

/**
 * Import JSON Lines written by `exportRecords`. Every non-empty line is validated
 * against the model schemas; memories and records are upserted by id.
 *
 * All or nothing: the whole import is one change (`changeAtomically`: staged and switched in
 * by one commit on a store with staged changes, one transaction otherwise), so a bad line
 * anywhere — line 1,502 of a million — rejects with a ValidationError naming `line N` and the
 * field, and nothing of the file is written; a process killed part-way leaves the store as it
 * was, or with the whole file imported. The file is read once, as a stream: memory stays
 * bounded by a batch whatever its size. With `onInvalid: 'skip'` a bad line is skipped
 * instead, and the result counts the skipped lines and says why for the first
 * {@link MAX_REPORTED_INVALID_LINES}.
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
 * is not base64 of the header's dimensions, or a header anywhere but the first line (those
 * are skipped with `onInvalid: 'skip'`), and always for a file of a newer format version.
 */
export async function importRecords(
  given: StoreLike,
  lines: ImportLines,
  options: ImportOptions,
): Promise<ImportResult> {
  const store = coreStore(given);
  if (!isIterable(lines)) {
    throw new ValidationError(
      [{ field: 'lines', message: `${importLinesSchema.description ?? 'expected lines of text'}` }],
      { component: COMPONENT },
    );
  }
  const onInvalid = options.onInvalid ?? 'reject';
  if (onInvalid !== 'reject' && onInvalid !== 'skip') {
    throw new ValidationError(
      [{ field: 'onInvalid', message: `expected "reject" or "skip" (got ${JSON.stringify(onInvalid)})` }],
      { component: COMPONENT },
    );
  }
  const target = options.embedder;
  const scope = isEmptyScope(options.scope) ? undefined : options.scope;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
  const result: ImportResult = { memories: 0, records: 0, skippedEmbeddings: 0, skippedLines: 0, invalidLines: [] };

  /** A bad line: rejects the import, or with `skip` is noted and left out. */
  const refuse = (error: ValidationError, line: number): void => {
    if (onInvalid !== 'skip') throw error;
    result.skippedLines += 1;
    if (result.invalidLines.length < MAX_REPORTED_INVALID_LINES) {
      result.invalidLines.push({ line, issues: [...error.issues] });
    }
  };

  const run = async (writer: BulkWriter) => {
    let batch = emptyBatch();
    let lineNumber = 0;
    let seenContent = false;
    // A file without a header can't say where its vectors came from, so they are dropped.
    let keepEmbeddings = false;
    let fileDimensions = 0;

    const flush = async () => {
      if (batch.size === 0) return;
      const pending = batch;
      batch = emptyBatch();
      if (scope) {
        const clashes = await foreignIdLines(store, pending, scope);
        for (const [line, error] of [...clashes].sort(([a], [b]) => a - b)) refuse(error, line);
        if (clashes.size > 0) {
          pending.memories = pending.memories.filter(({ line }) => !clashes.has(line));
          for (const [key, records] of pending.records) {
            pending.records.set(
              key,
              records.filter(({ line }) => !clashes.has(line)),
            );
          }
        }
      }
      if (pending.memories.length > 0) await writer.upsertMemories(pending.memories.map(({ record }) => record));
      for (const { key } of COLLECTIONS) {
        const records = pending.records.get(key);
        if (records && records.length > 0)
          await writer.upsertRecords(
            key,
            records.map(({ record }) => record),
          );
      }
      result.memories += pending.memories.length;
      result.skippedEmbeddings += pending.memories.filter(({ skippedEmbedding }) => skippedEmbedding).length;
      for (const records of pending.records.values()) result.records += records.length;
      options.onProgress?.(result.memories + result.records);
    };

    const acceptLine = (text: string): void => {
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
        seenContent = true;
        const header = parseLine(headerSchema, value, lineNumber);
        if (header.version > VERSION) {
          throw new FatalLine(
            lineError(
              lineNumber,
              [{ field: 'version', message: `expected version ${VERSION} or lower (got ${header.version})` }],
              'The file was written by a newer memoir; upgrade memoir to import it. Nothing was imported.',
            ),
          );
        }
        keepEmbeddings =
          header.embedder !== null &&
          header.embedder.id === target.id &&
          header.embedder.dimensions === target.dimensions;
        fileDimensions = header.embedder?.dimensions ?? 0;
        return;
      }
      seenContent = true;

      if (type === 'memory') {
        const line = parseLine(memoryLineSchema, value, lineNumber);
        if (scope && !scopeMatches(line.memory.scope, scope)) {
          throw outsideScope(lineNumber, 'memory.scope', scope, line.memory.scope);
        }
        let embedding: Float32Array | null = null;
        if (line.embedding !== null && keepEmbeddings) {
          embedding = decodeEmbedding(line.embedding, fileDimensions);
          if (!embedding) {
            throw lineError(lineNumber, [
              {
                field: 'embedding',
                message: `expected base64 of ${fileDimensions} little-endian float32 values (${fileDimensions * 4} bytes)`,
              },
            ]);
          }
        }
        batch.memories.push({
          record: { memory: line.memory, embedding },
          line: lineNumber,
          skippedEmbedding: line.embedding !== null && !keepEmbeddings,
        });
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
    };

    for await (const raw of physicalLines(lines)) {
      lineNumber += 1;
      const text = (lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw).replace(/\r$/, '');
      if (text.trim() === '') continue;
      try {
        acceptLine(text);
      } catch (error) {
        if (error instanceof FatalLine) throw error.error;
        if (!ValidationError.isInstance(error)) throw error;
        refuse(error, lineNumber);
      }
      if (batch.size >= batchSize) await flush();
    }
    await flush();
  };

  await changeAtomically(store, {}, run);
  return result;
}
