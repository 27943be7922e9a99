import type { Scope } from '../../core/spec/memory.js';
import type { MemoryFilter } from '../../core/spec/store.js';
import { encodeStoredText } from '../../core/text/stored-text.js';
import { entityKey } from './sqlite-schema.js';

/** A SQL condition and its parameters. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

// Lists go in as one JSON parameter, so a filter of any length binds a single variable.
const inList = (column: string, values: readonly string[]): SqlCondition => ({
  sql: `${column} IN (SELECT value FROM json_each(?))`,
  params: [JSON.stringify(values)],
});

/** `alias.agent_id = ? AND …` for the scope fields that are set; `1` when none are. */
export function scopeCondition(scope: Scope | undefined, alias: string): SqlCondition {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    parts.push(`${alias}.${column} = ?`);
    params.push(value);
  };
  add('agent_id', scope?.agentId);
  add('user_id', scope?.userId);
  add('namespace', scope?.namespace);
  return { sql: parts.length > 0 ? parts.join(' AND ') : '1', params };
}

/** The SQL form of {@link MemoryFilter} over `memories` aliased `m`; agrees with `memoryMatches`. */
export function memoryCondition(filter: MemoryFilter | undefined): SqlCondition {
  const parts: SqlCondition[] = [];
  if (!filter) return { sql: '1', params: [] };
  const scope = scopeCondition(filter.scope, 'm');
  if (scope.sql !== '1') parts.push(scope);
  if (filter.ids) parts.push(inList('m.id', filter.ids));
  if (filter.kinds) parts.push(inList('m.kind', filter.kinds));
  // Text columns hold the escaped form (see sqlite-rows), so the values compared are escaped too.
  if (filter.categories) parts.push(inList('m.category', filter.categories.map(encodeStoredText)));
  if (filter.fingerprints) parts.push(inList('m.fingerprint', filter.fingerprints));
  if (filter.entities) {
    parts.push({
      sql: 'EXISTS (SELECT 1 FROM memory_entities e WHERE e.memory_rowid = m.rowid AND e.entity_key IN (SELECT value FROM json_each(?)))',
      // memory_entities holds each name folded (case and accents), as memoryMatches compares them.
      params: [JSON.stringify(filter.entities.map(entityKey))],
    });
  }
  if (filter.sessionId !== undefined)
    parts.push({ sql: 'm.session_id = ?', params: [encodeStoredText(filter.sessionId)] });
  if (filter.bookmarked !== undefined) parts.push({ sql: 'm.bookmarked = ?', params: [filter.bookmarked ? 1 : 0] });
  if (filter.since !== undefined) parts.push({ sql: 'm.occurred_at >= ?', params: [filter.since] });
  if (filter.until !== undefined) parts.push({ sql: 'm.occurred_at <= ?', params: [filter.until] });
  if (filter.validAt !== undefined) {
    parts.push({
      sql: 'm.valid_from <= ? AND (m.valid_to IS NULL OR m.valid_to > ?)',
      params: [filter.validAt, filter.validAt],
    });
  }
  if (parts.length === 0) return { sql: '1', params: [] };
  return { sql: parts.map((part) => `(${part.sql})`).join(' AND '), params: parts.flatMap((part) => part.params) };
}
