import type { Memory, MemoryKind, Scope } from '../../core/spec/memory.js';
import { foldText } from '../../core/text/analyze.js';
import { lexicalTerms } from '../../core/text/memory-text.js';
import {
  decodeNullableText,
  decodeStoredText,
  encodeNullableText,
  encodeStoredText,
} from '../../core/text/stored-text.js';

/** A memories-table row as LanceDB takes it in and gives it back (lists as arrays). */
export interface MemoryRow {
  id: string;
  category: string;
  abstract: string;
  overview: string | null;
  content: string;
  source_session: string | null;
  active_count: number;
  created_at: number;
  updated_at: number;
  kind: string;
  context: string | null;
  entities: string[];
  entity_keys: string[];
  agent_id: string | null;
  user_id: string | null;
  namespace: string | null;
  source: string | null;
  occurred_at: number;
  valid_from: number;
  valid_to: number | null;
  invalidation_reason: string | null;
  superseded_by: string | null;
  importance: number;
  bookmarked: boolean;
  last_accessed_at: number | null;
  fingerprint: string;
  metadata: string;
  lexical_terms: string;
  embedded: boolean;
  vector?: number[] | Float32Array | null;
}

/** A record-table row. */
export interface RecordRow {
  id: string;
  agent_id: string | null;
  user_id: string | null;
  namespace: string | null;
  data: string;
}

/** Epoch milliseconds of an ISO timestamp (memoir stores only the `toISOString()` form, which round-trips). */
export const toMs = (iso: string): number => Date.parse(iso);
const toIso = (ms: number): string => new Date(ms).toISOString();
const optionalMs = (iso: string | null): number | null => (iso === null ? null : toMs(iso));
const optionalIso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : toIso(ms);

/** The key `entity_keys` holds for an entity name: folded as text search folds, then escaped. */
export const entityKey = (name: string): string => encodeStoredText(foldText(name));

/**
 * The row for a memory and its embedding. Free text goes through `encodeStoredText` so a lone
 * surrogate survives Arrow's UTF-8 (JSON columns are already ASCII-safe: `JSON.stringify`
 * escapes lone surrogates); ids and scope are well-formed by schema.
 */
export function memoryToRow(memory: Memory, embedding: Float32Array | null): MemoryRow {
  return {
    id: memory.id,
    category: encodeStoredText(memory.category),
    abstract: encodeStoredText(memory.abstract),
    overview: encodeNullableText(memory.overview),
    content: encodeStoredText(memory.content),
    source_session: encodeNullableText(memory.sessionId),
    active_count: memory.accessCount,
    created_at: toMs(memory.createdAt),
    updated_at: toMs(memory.updatedAt),
    kind: memory.kind,
    context: encodeNullableText(memory.context ?? null),
    entities: memory.entities.map(encodeStoredText),
    entity_keys: [...new Set(memory.entities.map(entityKey))],
    agent_id: memory.scope.agentId ?? null,
    user_id: memory.scope.userId ?? null,
    namespace: memory.scope.namespace ?? null,
    source: memory.source === null ? null : JSON.stringify(memory.source),
    occurred_at: toMs(memory.occurredAt),
    valid_from: toMs(memory.validFrom),
    valid_to: optionalMs(memory.validTo),
    invalidation_reason: encodeNullableText(memory.invalidationReason),
    superseded_by: memory.supersededBy,
    importance: memory.importance,
    bookmarked: memory.bookmarked,
    last_accessed_at: optionalMs(memory.lastAccessedAt),
    fingerprint: memory.fingerprint,
    metadata: JSON.stringify(memory.metadata),
    lexical_terms: lexicalTerms(memory),
    embedded: embedding !== null,
    vector: embedding === null ? null : new Float32Array(embedding),
  };
}

/** The scope a row's three columns name; absent fields stay absent. */
export function rowScope(row: { agent_id: string | null; user_id: string | null; namespace: string | null }): Scope {
  const scope: Scope = {};
  if (row.agent_id !== null && row.agent_id !== undefined) scope.agentId = row.agent_id;
  if (row.user_id !== null && row.user_id !== undefined) scope.userId = row.user_id;
  if (row.namespace !== null && row.namespace !== undefined) scope.namespace = row.namespace;
  return scope;
}

// Arrow hands lists back as vectors; plain arrays go to callers.
const strings = (value: unknown): string[] =>
  value === null || value === undefined ? [] : Array.from(value as Iterable<string>);

/** The memory a row holds. */
export function rowToMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    kind: row.kind as MemoryKind,
    category: decodeStoredText(row.category),
    abstract: decodeStoredText(row.abstract),
    overview: decodeNullableText(row.overview),
    content: decodeStoredText(row.content),
    context: decodeNullableText(row.context),
    entities: strings(row.entities).map(decodeStoredText),
    scope: rowScope(row),
    sessionId: decodeNullableText(row.source_session),
    source: row.source ? (JSON.parse(row.source) as Memory['source']) : null,
    occurredAt: toIso(row.occurred_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    validFrom: toIso(row.valid_from),
    validTo: optionalIso(row.valid_to),
    invalidationReason: decodeNullableText(row.invalidation_reason),
    supersededBy: row.superseded_by ?? null,
    importance: row.importance,
    bookmarked: row.bookmarked,
    accessCount: row.active_count,
    lastAccessedAt: optionalIso(row.last_accessed_at),
    fingerprint: row.fingerprint,
    metadata: JSON.parse(row.metadata) as Memory['metadata'],
  };
}

/** A row as plain JavaScript: Arrow list vectors become arrays, the vector a Float32Array copy. */
export function plainRow<T extends object>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Symbol.iterator in value) {
      out[key] =
        key === 'vector' ? Float32Array.from(value as Iterable<number>) : Array.from(value as Iterable<unknown>);
    } else out[key] = value;
  }
  return out as T;
}

/** The row for a record of any collection. */
export function recordToRow(record: { id: string; scope: Scope }): RecordRow {
  return {
    // The id may carry free text (a session record's id holds the session id).
    id: encodeStoredText(record.id),
    agent_id: record.scope.agentId ?? null,
    user_id: record.scope.userId ?? null,
    namespace: record.scope.namespace ?? null,
    data: JSON.stringify(record),
  };
}
