/**
 * Raw rows read by salvage, turned back into memories, records and embeddings — or
 * refused. A row from a table the schema names is trusted to belong there; a row found
 * outside every table (under an overwritten interior page) is recognised by its shape.
 */
import { MEMORY_KINDS, type Memory } from '../../core/spec/memory.js';
import { entitySchema, opinionSchema, procedureSchema, sessionSchema } from '../../core/spec/records.js';
import type { RawRow, SqlValue } from './sqlite-btree.js';
import { type MemoryRow, rowToMemory } from './sqlite-rows.js';

/** The record tables, as salvage fills them. */
export const RECORD_TABLES = ['opinions', 'procedures', 'sessions', 'entities'] as const;
/** One of {@link RECORD_TABLES}. */
export type RecordTable = (typeof RECORD_TABLES)[number];

/** A record row: its scope columns and its JSON document. */
export interface RecordRow {
  /** The record's id. */
  id: string;
  /** `agent_id`, `user_id`, `namespace`, `data`: the columns after `id`, as stored. */
  columns: [SqlValue, SqlValue, SqlValue, string];
}

const ISO_TIME = /^[+-]?\d{4,6}-\d\d-\d\dT\d\d:\d\d/;
const TEXT_COLUMNS = ['id', 'kind', 'category', 'abstract', 'content', 'entities', 'fingerprint', 'metadata'] as const;
const TIME_COLUMNS = ['occurred_at', 'created_at', 'updated_at', 'valid_from'] as const;
const NULLABLE_TEXT = [
  'overview',
  'agent_id',
  'user_id',
  'namespace',
  'session_id',
  'source',
  'valid_to',
  'invalidation_reason',
  'superseded_by',
  'last_accessed_at',
  'context',
] as const;

function textOrNull(value: SqlValue | undefined): value is string | null {
  return value === null || value === undefined || typeof value === 'string';
}

/**
 * The memory a `memories` row holds, or null when the values cannot be one: wrong types,
 * JSON columns that do not parse, an unknown kind or dates that are not dates. The checks
 * are structural on purpose — salvage keeps whatever memoir once stored.
 */
export function memoryFromRow(columns: readonly string[], row: RawRow): Memory | null {
  const named: Record<string, SqlValue | undefined> = {};
  columns.forEach((column, index) => {
    named[column] = row.values[index];
  });
  if (TEXT_COLUMNS.some((column) => typeof named[column] !== 'string')) return null;
  if (!TIME_COLUMNS.every((column) => typeof named[column] === 'string' && ISO_TIME.test(named[column] as string))) {
    return null;
  }
  if (NULLABLE_TEXT.some((column) => !textOrNull(named[column]))) return null;
  if (!(MEMORY_KINDS as readonly unknown[]).includes(named.kind)) return null;
  const numbers = ['importance', 'bookmarked', 'access_count'].map((column) => named[column]);
  if (numbers.some((value) => typeof value !== 'number' || !Number.isFinite(value))) return null;
  try {
    const memory = rowToMemory({ ...named, context: named.context ?? null } as unknown as MemoryRow);
    const entitiesOk = Array.isArray(memory.entities) && memory.entities.every((entity) => typeof entity === 'string');
    const metadataOk =
      typeof memory.metadata === 'object' && memory.metadata !== null && !Array.isArray(memory.metadata);
    const sourceOk = memory.source === null || (typeof memory.source === 'object' && !Array.isArray(memory.source));
    return entitiesOk && metadataOk && sourceOk && memory.id !== '' ? memory : null;
  } catch {
    return null;
  }
}

/** A record row (`id, agent_id, user_id, namespace, data`), or null when its JSON is not a record with that id. */
export function recordFromRow(row: RawRow): RecordRow | null {
  const [id, agent, user, namespace, data] = row.values;
  if (row.values.length !== 5 || typeof id !== 'string' || id === '' || typeof data !== 'string') return null;
  if (![agent, user, namespace].every(textOrNull)) return null;
  try {
    const parsed = JSON.parse(data) as { id?: unknown } | null;
    if (typeof parsed !== 'object' || parsed === null || parsed.id !== id) return null;
  } catch {
    return null;
  }
  return { id, columns: [agent ?? null, user ?? null, namespace ?? null, data] };
}

const RECORD_SCHEMAS = [
  ['sessions', sessionSchema],
  ['entities', entitySchema],
  ['opinions', opinionSchema],
  ['procedures', procedureSchema],
] as const;

/** Which record table a record found outside every table belongs to, by the schema its JSON passes. */
export function recordTableOf(record: RecordRow): RecordTable | null {
  const data = JSON.parse(record.columns[3]) as unknown;
  for (const [table, schema] of RECORD_SCHEMAS) if (schema.safeParse(data).success) return table;
  return null;
}

/** A stored embedding of `dimensions` floats, or null. Rows found by shape must also be unit length. */
export function embeddingFromRow(row: RawRow, dimensions: number, byShape: boolean): Uint8Array | null {
  const blob = row.values[1];
  if (row.values.length !== 2 || row.values[0] !== null || !(blob instanceof Uint8Array)) return null;
  if (blob.byteLength !== dimensions * 4) return null;
  if (!byShape) return blob;
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  let norm = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = view.getFloat32(index * 4, true);
    if (!Number.isFinite(value)) return null;
    norm += value * value;
  }
  return Math.abs(norm - 1) < 1e-3 ? blob : null;
}

/** A `memoir_meta` row as `[key, value]`, or null. */
export function metaFromRow(row: RawRow): [string, string] | null {
  const [key, value] = row.values;
  return row.values.length === 2 && typeof key === 'string' && typeof value === 'string' ? [key, value] : null;
}
