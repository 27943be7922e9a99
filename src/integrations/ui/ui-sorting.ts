/**
 * The memory list's orders, chosen by query parameters and applied on the server: `sort` is
 * date, user, category or importance, `dir` asc or desc. Date and importance are orders the store
 * keeps; user and category come from a pass over the scope (ui-scan.ts), newest first within a group.
 */
import { ValidationError } from '../../index.js';
import type { ScanRow } from './ui-context.js';

/** The orders the list offers. */
export const SORTS = ['date', 'user', 'category', 'importance'] as const;
/** One of {@link SORTS}. */
export type SortKey = (typeof SORTS)[number];

/** An order and its direction. */
export interface Sort {
  /** What it sorts by. */
  key: SortKey;
  /** Which way. */
  dir: 'asc' | 'desc';
  /** True when the request named it (so links repeat it); false for the default. */
  given: boolean;
}

/** The way each order reads most naturally: newest and most important first, names A to Z. */
const NATURAL: Record<SortKey, 'asc' | 'desc'> = { date: 'desc', importance: 'desc', user: 'asc', category: 'asc' };

/** The order a request asks for; an unknown one is the caller's mistake, named. */
export function sortOf(input: URLSearchParams): Sort {
  const key = input.get('sort')?.trim() || 'date';
  const dir = input.get('dir')?.trim() || undefined;
  if (!(SORTS as readonly string[]).includes(key)) {
    throw new ValidationError([{ field: 'sort', message: `expected one of ${SORTS.join(', ')}` }], { component: 'ui' });
  }
  if (dir !== undefined && dir !== 'asc' && dir !== 'desc') {
    throw new ValidationError([{ field: 'dir', message: 'expected asc or desc' }], { component: 'ui' });
  }
  const sortKey = key as SortKey;
  return { key: sortKey, dir: dir ?? NATURAL[sortKey], given: input.has('sort') || input.has('dir') };
}

/** The parameters that repeat an order in a link (none for the default). */
export function sortParams(sort: Sort): Record<string, string | undefined> {
  return sort.given ? { sort: sort.key, dir: sort.dir } : {};
}

/** The direction a column header's link asks for: the other way when it is the current order. */
export function nextDir(sort: Sort, key: SortKey): 'asc' | 'desc' {
  if (sort.key !== key) return NATURAL[key];
  return sort.dir === 'asc' ? 'desc' : 'asc';
}

// Absent fields sort after every name: memories of no user come last in A to Z. Keys are
// compared by code point, not by locale: a pass may hold 100,000 rows, and one comparison
// function that allocates or consults a collator per call made a page of 60,000 take seconds.
const LAST = '\uffff';
// Case folded once per row, so `Bob` sorts beside `bob` and not before every lower-case name.
const groupKey = (row: ScanRow, key: SortKey): string =>
  (key === 'user'
    ? `${row.scope.userId ?? LAST}\u0000${row.scope.agentId ?? LAST}\u0000${row.scope.namespace ?? LAST}`
    : row.category
  ).toLowerCase();

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// The rows of one pass in one order, kept with the pass (a pass is never changed once read).
const sortedPasses = new WeakMap<readonly ScanRow[], Map<string, ScanRow[]>>();

/** Rows in a scan order (user or category), newest first within a group, ties broken by id. */
export function sortRows(rows: readonly ScanRow[], sort: Sort): ScanRow[] {
  const orders = sortedPasses.get(rows) ?? new Map<string, ScanRow[]>();
  sortedPasses.set(rows, orders);
  const name = `${sort.key}:${sort.dir}`;
  const kept = orders.get(name);
  if (kept) return kept;
  const sign = sort.dir === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, group: groupKey(row, sort.key) }));
  keyed.sort(
    (a, b) =>
      sign * compare(a.group, b.group) || compare(b.row.occurredAt, a.row.occurredAt) || compare(a.row.id, b.row.id),
  );
  const sorted = keyed.map((each) => each.row);
  orders.set(name, sorted);
  return sorted;
}
