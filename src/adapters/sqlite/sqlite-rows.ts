import type { Memory } from '../../core/spec/memory.js';
import { lexicalTerms } from '../../core/text/memory-text.js';
import {
  decodeNullableText,
  decodeStoredText,
  encodeNullableText,
  encodeStoredText,
} from '../../core/text/stored-text.js';

/** Column list of `memories`, in the order {@link memoryToRow} fills them. */
export const MEMORY_COLUMNS = [
  'id',
  'kind',
  'category',
  'abstract',
  'overview',
  'content',
  'entities',
  'agent_id',
  'user_id',
  'namespace',
  'session_id',
  'source',
  'occurred_at',
  'created_at',
  'updated_at',
  'valid_from',
  'valid_to',
  'invalidation_reason',
  'superseded_by',
  'importance',
  'bookmarked',
  'access_count',
  'last_accessed_at',
  'fingerprint',
  'metadata',
  'context',
  'lexical_terms',
] as const;

/** A `memories` row as better-sqlite3 returns it. */
export interface MemoryRow {
  id: string;
  kind: Memory['kind'];
  category: string;
  abstract: string;
  overview: string | null;
  content: string;
  entities: string;
  agent_id: string | null;
  user_id: string | null;
  namespace: string | null;
  session_id: string | null;
  source: string | null;
  occurred_at: string;
  created_at: string;
  updated_at: string;
  valid_from: string;
  valid_to: string | null;
  invalidation_reason: string | null;
  superseded_by: string | null;
  importance: number;
  bookmarked: number;
  access_count: number;
  last_accessed_at: string | null;
  fingerprint: string;
  metadata: string;
  context: string | null;
}

/** Columns read back into a Memory (everything but the index terms). */
export const MEMORY_SELECT = MEMORY_COLUMNS.filter((column) => column !== 'lexical_terms')
  .map((column) => `m.${column}`)
  .join(', ');

/** Float32 vector → the little-endian bytes stored in a BLOB. */
export function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** BLOB → a Float32Array that owns its memory. */
export function blobToVector(blob: Uint8Array): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

/**
 * Parameters for inserting `memory`, in {@link MEMORY_COLUMNS} order. Free text goes through
 * `encodeStoredText` so a lone surrogate survives SQLite's UTF-8 (JSON columns are already
 * ASCII-safe: `JSON.stringify` escapes lone surrogates); ids and scope are well-formed by schema.
 */
export function memoryToRow(memory: Memory): unknown[] {
  return [
    memory.id,
    memory.kind,
    encodeStoredText(memory.category),
    encodeStoredText(memory.abstract),
    encodeNullableText(memory.overview),
    encodeStoredText(memory.content),
    JSON.stringify(memory.entities),
    memory.scope.agentId ?? null,
    memory.scope.userId ?? null,
    memory.scope.namespace ?? null,
    encodeNullableText(memory.sessionId),
    memory.source === null ? null : JSON.stringify(memory.source),
    memory.occurredAt,
    memory.createdAt,
    memory.updatedAt,
    memory.validFrom,
    memory.validTo,
    encodeNullableText(memory.invalidationReason),
    memory.supersededBy,
    memory.importance,
    memory.bookmarked ? 1 : 0,
    memory.accessCount,
    memory.lastAccessedAt,
    memory.fingerprint,
    JSON.stringify(memory.metadata),
    encodeNullableText(memory.context),
    lexicalTerms(memory),
  ];
}

/** A row back into the Memory it was written from. */
export function rowToMemory(row: MemoryRow): Memory {
  const scope: Memory['scope'] = {};
  if (row.agent_id !== null) scope.agentId = row.agent_id;
  if (row.user_id !== null) scope.userId = row.user_id;
  if (row.namespace !== null) scope.namespace = row.namespace;
  return {
    id: row.id,
    kind: row.kind,
    category: decodeStoredText(row.category),
    abstract: decodeStoredText(row.abstract),
    overview: decodeNullableText(row.overview),
    content: decodeStoredText(row.content),
    entities: JSON.parse(row.entities) as string[],
    scope,
    sessionId: decodeNullableText(row.session_id),
    source: row.source === null ? null : (JSON.parse(row.source) as Memory['source']),
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    invalidationReason: decodeNullableText(row.invalidation_reason),
    supersededBy: row.superseded_by,
    importance: row.importance,
    bookmarked: row.bookmarked === 1,
    accessCount: row.access_count,
    lastAccessedAt: row.last_accessed_at,
    fingerprint: row.fingerprint,
    metadata: JSON.parse(row.metadata) as Memory['metadata'],
    context: decodeNullableText(row.context),
  };
}
