/**
 * Checking a backup's `memories.jsonl` one line at a time, the same way whether the dump
 * is in memory or streaming out of an archive: splitting bytes into lines (with a cap on a
 * line's length, so a hostile line cannot take unbounded memory), and validating each line
 * against the model schemas, the header's embedder and, for a scoped restore, the scope.
 *
 * @module
 */
import { z } from 'zod';
import { scopeMatches } from '../search/memory-filter.js';
import type { ValidationError } from '../spec/errors.js';
import { memorySchema, type Scope } from '../spec/memory.js';
import {
  type Entity,
  entitySchema,
  type Opinion,
  opinionSchema,
  type Procedure,
  procedureSchema,
  type Session,
  sessionSchema,
} from '../spec/records.js';
import type { EmbedderIdentity, MemoryRecord } from '../spec/store.js';
import { toValidationIssues } from '../utils/validate.js';
import { type BackupCounts, emptyCounts, invalid, MEMORIES_FILE } from './backup-manifest.js';
import { decodeEmbedding } from './transfer-encoding.js';

/**
 * The longest dump line accepted, in bytes. Every memory retain accepts fits (5 M characters
 * of content, 1 M each of overview and context, 4 M of metadata JSON, at most 6 bytes per
 * character once escaped), and a line is the most a reader holds at once.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const headerSchema = z.object({
  type: z.literal('header'),
  format: z.literal('memoir-jsonl', 'expected "memoir-jsonl"'),
  version: z.literal(1, 'expected version 1'),
  embedder: z.object({ id: z.string().min(1), dimensions: z.number().int().positive() }).nullable(),
});
const memoryLineSchema = z.object({
  type: z.literal('memory'),
  memory: memorySchema,
  embedding: z.string().nullable(),
});
const recordSchemas = {
  opinion: { key: 'opinions', schema: z.object({ type: z.literal('opinion'), record: opinionSchema }) },
  procedure: { key: 'procedures', schema: z.object({ type: z.literal('procedure'), record: procedureSchema }) },
  session: { key: 'sessions', schema: z.object({ type: z.literal('session'), record: sessionSchema }) },
  entity: { key: 'entities', schema: z.object({ type: z.literal('entity'), record: entitySchema }) },
} as const;

/** One memory or record read from a dump, with the line it came from. */
export type DumpItem = { line: number } & (
  | { key: 'memories'; record: MemoryRecord }
  | { key: 'opinions'; record: Opinion }
  | { key: 'procedures'; record: Procedure }
  | { key: 'sessions'; record: Session }
  | { key: 'entities'; record: Entity }
);

/** The scope a memory or record of a dump belongs to. */
export function scopeOfItem(item: DumpItem): Scope {
  return item.key === 'memories' ? item.record.memory.scope : item.record.scope;
}

/** The id a memory or record of a dump is stored under. */
export function idOfItem(item: DumpItem): string {
  return item.key === 'memories' ? item.record.memory.id : item.record.id;
}

/** Where a dump line is, for error messages: `memories.jsonl line 12`. */
export function lineLabel(line: number): string {
  return `${MEMORIES_FILE} line ${line}`;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(toValidationIssues(result.error, value, where));
}

/**
 * Validates the lines of one dump in order, the way `importRecords` would, without writing
 * anything: a header first, then memories (embeddings decoded against the header's
 * dimensions) and records, tallied in `counts`. With `scope`, anything outside it is refused.
 */
export class DumpChecker {
  /** The embedder named by the header, or null. */
  embedder: EmbedderIdentity | null = null;
  /** What was read so far. */
  readonly counts: BackupCounts = emptyCounts();
  #sawHeader = false;
  readonly #scope: Scope | undefined;

  constructor(options: { scope?: Scope } = {}) {
    this.#scope = options.scope;
  }

  /**
   * Check one line (without its newline). Resolves to the memory or record it holds, or
   * null for a blank line or the header.
   *
   * @throws ValidationError naming `memories.jsonl line N` and the field.
   */
  accept(text: string, line: number): DumpItem | null {
    if (text.trim() === '') return null;
    const where = lineLabel(line);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw invalid([{ field: where, message: `not valid JSON (${(error as Error).message})` }]);
    }
    if (!this.#sawHeader) {
      this.embedder = parseWith(headerSchema, value, where).embedder;
      this.#sawHeader = true;
      return null;
    }
    const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    let item: DumpItem;
    if (type === 'memory') {
      const entry = parseWith(memoryLineSchema, value, where);
      let embedding: Float32Array | null = null;
      if (entry.embedding !== null) {
        embedding = this.embedder ? decodeEmbedding(entry.embedding, this.embedder.dimensions) : null;
        if (!embedding) {
          throw invalid([
            {
              field: `${where}.embedding`,
              message: 'expected base64 of float32 values matching the header dimensions',
            },
          ]);
        }
      }
      item = { key: 'memories', line, record: { memory: entry.memory, embedding } };
    } else if (typeof type === 'string' && Object.hasOwn(recordSchemas, type)) {
      const { key, schema } = recordSchemas[type as keyof typeof recordSchemas];
      const entry = parseWith(schema, value, where) as { record: unknown };
      item = { key, line, record: entry.record } as DumpItem;
    } else {
      throw invalid([{ field: `${where}.type`, message: `unknown line type ${JSON.stringify(type) ?? 'nothing'}` }]);
    }
    if (this.#scope && !scopeMatches(scopeOfItem(item), this.#scope)) {
      throw invalid(
        [
          {
            field: `${where}.${item.key === 'memories' ? 'memory' : 'record'}.scope`,
            message: `expected a scope within ${JSON.stringify(this.#scope)} (got ${JSON.stringify(scopeOfItem(item))})`,
          },
        ],
        'A scoped restore takes only its own scope’s data; restore this backup with an unscoped (admin) client.',
      );
    }
    this.counts[item.key] += 1;
    return item;
  }

  /** Check the dump as a whole once every line was accepted. */
  finish(): void {
    if (!this.#sawHeader) throw invalid([{ field: MEMORIES_FILE, message: 'the dump is empty (no header line)' }]);
  }
}

/**
 * Splits byte chunks into UTF-8 lines (without their `\n`), numbered from 1, holding at most
 * one partial line of at most {@link MAX_LINE_BYTES}.
 */
export class LineSplitter {
  #partial: Buffer[] = [];
  #partialBytes = 0;
  #line = 0;
  readonly #maxLineBytes: number;

  constructor(maxLineBytes = MAX_LINE_BYTES) {
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * The complete lines in `chunk` (with what earlier chunks left), as `[text, line number]`.
   *
   * @throws ValidationError when a line grows past the cap.
   */
  *push(chunk: Buffer): Generator<[string, number]> {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end >= 0; end = chunk.indexOf(10, start)) {
      this.#hold(chunk.subarray(start, end));
      yield [this.#take(), this.#line];
      start = end + 1;
    }
    if (start < chunk.length) this.#hold(chunk.subarray(start));
  }

  /** The last line when the data does not end with a newline. */
  *end(): Generator<[string, number]> {
    if (this.#partialBytes > 0 || this.#partial.length > 0) yield [this.#take(), this.#line];
  }

  #hold(bytes: Buffer): void {
    this.#partialBytes += bytes.length;
    if (this.#partialBytes > this.#maxLineBytes) {
      const line = this.#line + 1;
      this.#partial = [];
      throw lineTooLong(line, this.#maxLineBytes);
    }
    this.#partial.push(bytes);
  }

  #take(): string {
    const text =
      this.#partial.length === 1 ? this.#partial[0]!.toString('utf8') : Buffer.concat(this.#partial).toString('utf8');
    this.#partial = [];
    this.#partialBytes = 0;
    this.#line += 1;
    return text;
  }
}

function lineTooLong(line: number, max: number): ValidationError {
  return invalid([{ field: lineLabel(line), message: `longer than ${max} bytes, more than any memory can take` }]);
}
