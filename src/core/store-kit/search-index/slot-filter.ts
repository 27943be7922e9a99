import type { MemoryFilter } from '../../spec/store.js';
import { instant, type SlotTable } from './slot-table.js';

/** The scope part of a filter: which slots are the tenant's, and a key naming that scope. */
export interface SlotScope {
  /** True for the scope's slots. */
  test: (slot: number) => boolean;
  /** Stable name of the scope, for caching its statistics. */
  key: string;
}

/**
 * A compiled filter: `none` when no memory can match, else a test per slot (undefined:
 * all match) and, for a scoped filter, the scope alone (its statistics are the tenant's).
 */
export type SlotFilter =
  | { kind: 'none' }
  | { kind: 'test'; accepts: ((slot: number) => boolean) | undefined; scope: SlotScope | undefined };

/** The filter fields tested in SQL (they need indexes the slot table does not keep), as rowids. */
export type ResolveRowids = (filter: MemoryFilter) => Set<number>;

const NONE: SlotFilter = { kind: 'none' };

/**
 * Compile `filter` against the slot table, agreeing with `memoryMatches`: scope, kinds,
 * categories, session, bookmark, ids and times are tested on the slot's columns; entity
 * and fingerprint lists (and a time that does not parse) go to SQL once per search.
 */
export function compileSlotFilter(
  filter: MemoryFilter | undefined,
  table: SlotTable,
  resolveRowids: ResolveRowids,
): SlotFilter {
  if (!filter) return { kind: 'test', accepts: undefined, scope: undefined };
  const tests: Array<(slot: number) => boolean> = [];
  const inSql: MemoryFilter = {};
  const equal = (column: Int32Array, value: string | undefined) => {
    if (value === undefined) return true;
    const id = table.strings.lookup(value);
    if (id === undefined) return false;
    tests.push((slot) => column[slot] === id);
    return true;
  };
  const oneOf = (column: Int32Array, values: readonly string[] | undefined) => {
    if (values === undefined) return true;
    const ids = new Set<number>();
    for (const value of values) {
      const id = table.strings.lookup(value);
      if (id !== undefined) ids.add(id);
    }
    if (ids.size === 0) return false;
    tests.push((slot) => ids.has(column[slot]!));
    return true;
  };
  if (
    !equal(table.agent, filter.scope?.agentId) ||
    !equal(table.user, filter.scope?.userId) ||
    !equal(table.namespace, filter.scope?.namespace)
  ) {
    return NONE;
  }
  // The scope tests come first: they alone make the tenant's corpus.
  const scopeTests = [...tests];
  const scope: SlotScope | undefined =
    scopeTests.length === 0
      ? undefined
      : {
          test: (slot) => scopeTests.every((test) => test(slot)),
          key: JSON.stringify([
            filter.scope?.agentId ?? null,
            filter.scope?.userId ?? null,
            filter.scope?.namespace ?? null,
          ]),
        };
  if (
    !oneOf(table.kind, filter.kinds) ||
    !oneOf(table.category, filter.categories) ||
    !equal(table.session, filter.sessionId)
  ) {
    return NONE;
  }
  if (filter.ids) {
    const ids = new Set(filter.ids);
    tests.push((slot) => ids.has(table.ids[slot]!));
  }
  if (filter.bookmarked !== undefined) {
    const wanted = filter.bookmarked ? 1 : 0;
    tests.push((slot) => table.bookmarked[slot] === wanted);
  }
  const time = (value: string | undefined, field: 'since' | 'until' | 'validAt', test: (at: number) => void) => {
    if (value === undefined) return;
    const at = instant(value);
    if (Number.isNaN(at)) inSql[field] = value;
    else test(at);
  };
  time(filter.since, 'since', (at) => tests.push((slot) => table.occurredAt[slot]! >= at));
  time(filter.until, 'until', (at) => tests.push((slot) => table.occurredAt[slot]! <= at));
  time(filter.validAt, 'validAt', (at) =>
    tests.push((slot) => table.validFrom[slot]! <= at && !(table.validTo[slot]! <= at)),
  );
  if (filter.entities) inSql.entities = filter.entities;
  if (filter.fingerprints) inSql.fingerprints = filter.fingerprints;
  if (Object.keys(inSql).length > 0) {
    const rowids = resolveRowids(inSql);
    if (rowids.size === 0) return NONE;
    tests.push((slot) => rowids.has(table.rowids[slot]!));
  }
  if (tests.length === 0) return { kind: 'test', accepts: undefined, scope };
  if (tests.length === 1) return { kind: 'test', accepts: tests[0], scope };
  return { kind: 'test', accepts: (slot) => tests.every((test) => test(slot)), scope };
}
