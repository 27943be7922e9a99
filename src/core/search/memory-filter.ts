import type { Memory, Scope } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';
import { foldText } from '../text/analyze.js';

/** True when every field named by `filter` is equal on `scope` (see {@link MemoryFilter.scope}). */
export function scopeMatches(scope: Scope, filter: Scope | undefined): boolean {
  if (!filter) return true;
  if (filter.agentId !== undefined && scope.agentId !== filter.agentId) return false;
  if (filter.userId !== undefined && scope.userId !== filter.userId) return false;
  if (filter.namespace !== undefined && scope.namespace !== filter.namespace) return false;
  return true;
}

type Predicate = (memory: Memory) => boolean;

const toSet = <T>(values: readonly T[] | undefined) => (values ? new Set(values) : undefined);

/** Build the test for one filter once, with its lists as sets, to apply to many memories. */
export function compileFilter(filter: MemoryFilter | undefined): Predicate {
  if (!filter) return () => true;
  const ids = toSet(filter.ids);
  const kinds = toSet<string>(filter.kinds);
  const categories = toSet(filter.categories);
  const fingerprints = toSet(filter.fingerprints);
  // Entities match as text search does: case and accents folded, so `zoe` finds `Zoë`.
  const entities = filter.entities ? new Set(filter.entities.map((entity) => foldText(entity))) : undefined;
  const { scope, sessionId, bookmarked, since, until, validAt } = filter;
  return (memory) => {
    if (!scopeMatches(memory.scope, scope)) return false;
    if (ids && !ids.has(memory.id)) return false;
    if (kinds && !kinds.has(memory.kind)) return false;
    if (categories && !categories.has(memory.category)) return false;
    if (fingerprints && !fingerprints.has(memory.fingerprint)) return false;
    if (sessionId !== undefined && memory.sessionId !== sessionId) return false;
    if (bookmarked !== undefined && memory.bookmarked !== bookmarked) return false;
    if (since !== undefined && memory.occurredAt < since) return false;
    if (until !== undefined && memory.occurredAt > until) return false;
    if (validAt !== undefined) {
      if (memory.validFrom > validAt) return false;
      if (memory.validTo !== null && memory.validTo <= validAt) return false;
    }
    if (entities && !memory.entities.some((entity) => entities.has(foldText(entity)))) return false;
    return true;
  };
}

const compiled = new WeakMap<MemoryFilter, Predicate>();

/**
 * Whether `memory` passes `filter`: the reference semantics of {@link MemoryFilter} (scope
 * fields that are named, entities folded for case and accents, `since`/`until` on
 * `occurredAt`, `validAt` with `validFrom` inclusive and `validTo` exclusive). A store that
 * filters in JavaScript can use it as is; one that filters natively must agree with it, which
 * the store contract (`memoir/testing/contracts`) checks.
 *
 * @group Ports
 */
export function memoryMatches(memory: Memory, filter: MemoryFilter | undefined): boolean {
  if (!filter) return true;
  let predicate = compiled.get(filter);
  if (!predicate) {
    predicate = compileFilter(filter);
    compiled.set(filter, predicate);
  }
  return predicate(memory);
}
