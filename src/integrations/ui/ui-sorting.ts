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

// Absent fields sort after every name: memories of no user come last in A to Z.
const LAST = '\uffff';
const owner = (row: ScanRow) => [row.scope.userId ?? LAST, row.scope.agentId ?? LAST, row.scope.namespace ?? LAST];

function compareText(a: readonly string[], b: readonly string[]): number {
  for (let index = 0; index < a.length; index++) {
    const order = a[index]!.localeCompare(b[index]!);
    if (order !== 0) return order;
  }
  return 0;
}

/** Rows in a scan order (user or category), newest first within a group, ties broken by id. */
export function sortRows(rows: readonly ScanRow[], sort: Sort): ScanRow[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  const group = (row: ScanRow) => (sort.key === 'user' ? owner(row) : [row.category]);
  return [...rows].sort(
    (a, b) =>
      sign * compareText(group(a), group(b)) || b.occurredAt.localeCompare(a.occurredAt) || a.id.localeCompare(b.id),
  );
}
