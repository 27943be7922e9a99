import type { Scope } from '../../core/spec/memory.js';
import type { MemoryFilter } from '../../core/spec/store.js';
import { encodeStoredText } from '../../core/text/stored-text.js';
import { entityKey, toMs } from './lancedb-rows.js';

/** A SQL string literal: quotes doubled, so no value is ever read as SQL. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `column IN (…)`, or `false` for an empty list (an empty filter list matches nothing). */
export function sqlIn(column: string, values: readonly string[]): string {
  if (values.length === 0) return 'false';
  return `${column} IN (${values.map(sqlString).join(', ')})`;
}

/** The scope fields that are set, as equalities; `null` when none are (every scope matches). */
export function scopeSql(scope: Scope | undefined): string | null {
  const parts: string[] = [];
  if (scope?.agentId !== undefined) parts.push(`agent_id = ${sqlString(scope.agentId)}`);
  if (scope?.userId !== undefined) parts.push(`user_id = ${sqlString(scope.userId)}`);
  if (scope?.namespace !== undefined) parts.push(`namespace = ${sqlString(scope.namespace)}`);
  return parts.length > 0 ? parts.join(' AND ') : null;
}

/**
 * The SQL form of {@link MemoryFilter} over the memories table, for LanceDB to apply before
 * it ranks (a prefilter); agrees with `memoryMatches`. `null` matches everything. The scope
 * comes first: it is the condition the scalar indexes answer.
 */
export function memoryWhere(filter: MemoryFilter | undefined): string | null {
  if (!filter) return null;
  const parts: string[] = [];
  const scope = scopeSql(filter.scope);
  if (scope) parts.push(scope);
  if (filter.ids) parts.push(sqlIn('id', filter.ids));
  if (filter.kinds) parts.push(sqlIn('kind', filter.kinds));
  // Text columns hold the escaped form (see lancedb-rows), so the values compared are escaped too.
  if (filter.categories) parts.push(sqlIn('category', filter.categories.map(encodeStoredText)));
  if (filter.fingerprints) parts.push(sqlIn('fingerprint', filter.fingerprints));
  if (filter.entities) {
    const keys = [...new Set(filter.entities.map(entityKey))];
    parts.push(
      keys.length === 0 ? 'false' : `array_has_any(entity_keys, make_array(${keys.map(sqlString).join(', ')}))`,
    );
  }
  if (filter.sessionId !== undefined) parts.push(`source_session = ${sqlString(encodeStoredText(filter.sessionId))}`);
  if (filter.bookmarked !== undefined) parts.push(`bookmarked = ${filter.bookmarked}`);
  if (filter.since !== undefined) parts.push(`occurred_at >= ${toMs(filter.since)}`);
  if (filter.until !== undefined) parts.push(`occurred_at <= ${toMs(filter.until)}`);
  if (filter.validAt !== undefined) {
    const at = toMs(filter.validAt);
    parts.push(`valid_from <= ${at} AND (valid_to IS NULL OR valid_to > ${at})`);
  }
  if (parts.length === 0) return null;
  return parts.map((part) => `(${part})`).join(' AND ');
}

/** `a AND b` for the conditions that are present; `null` when none are. */
export function andSql(...conditions: Array<string | null | undefined>): string | null {
  const present = conditions.filter((condition): condition is string => Boolean(condition));
  if (present.length === 0) return null;
  return present.length === 1 ? present[0]! : present.map((condition) => `(${condition})`).join(' AND ');
}
