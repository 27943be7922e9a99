import type { MemoryFilter } from '../../../core/spec/store.js';
import { instant, type SlotTable } from './slot-table.js';

/** A compiled filter: `none` when no memory can match, else a test per slot (undefined: all match). */
export type SlotFilter = { kind: 'none' } | { kind: 'test'; accepts: ((slot: number) => boolean) | undefined };

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
  if (!filter) return { kind: 'test', accepts: undefined };
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
    !equal(table.namespace, filter.scope?.namespace) ||
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
  if (tests.length === 0) return { kind: 'test', accepts: undefined };
  if (tests.length === 1) return { kind: 'test', accepts: tests[0] };
  return { kind: 'test', accepts: (slot) => tests.every((test) => test(slot)) };
}
