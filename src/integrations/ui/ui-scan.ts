/**
 * A pass over the memories of the view's scope through the client, keeping only what sorting and
 * counting need (id, scope, category, time). The store has no index by user or by category, so
 * those orders and the counts per user come from such a pass. A pass is kept a while (pages of
 * one order read the same pass; a slow pass longer) and dropped on every change the view makes.
 * A page waits for a pass only briefly: a long one goes on in the background and the page says so
 * (20,000 memories took about 1.8 s on a shared 2-core machine).
 */
import type { ListOptions } from '../../index.js';
import { type ScanEntry, type ScanRow, scopeOption, type UiRequest } from './ui-context.js';

/** Memories read per call of the pass. */
const SCAN_PAGE = 2000;
/** A pass is reused for at least this long, ms: long enough for paging, short enough that another process's writes show. */
const SCAN_FRESH_MS = 10_000;
/** ...and for at least this many times its own duration, so a slow pass is not redone on every visit. */
const SCAN_FRESH_FACTOR = 5;
/** Passes kept at once (one per scope and filter). */
const SCAN_CAPACITY = 8;

/** The filters of a pass: list's, without order or paging. */
export type ScanFilters = Omit<ListOptions, 'orderBy' | 'direction' | 'limit' | 'offset' | 'scope'>;

async function readAll(request: UiRequest, filters: ScanFilters): Promise<ScanRow[]> {
  const rows: ScanRow[] = [];
  // Keyset pages on occurredAt, newest first (as the list pages): an offset deep into a large
  // store costs a pass over every row before it, so a scan by offsets would grow with its square.
  let until: string | undefined;
  let skip = 0;
  for (;;) {
    const page = await request.client.list({
      ...filters,
      ...scopeOption(request),
      ...(until === undefined ? {} : { until }),
      orderBy: 'occurredAt',
      direction: 'desc',
      limit: SCAN_PAGE,
      offset: skip,
    });
    for (const memory of page) {
      rows.push({
        id: memory.id,
        scope: memory.scope,
        category: memory.category,
        occurredAt: memory.occurredAt,
        current: memory.validTo === null,
        bookmarked: memory.bookmarked === true,
      });
    }
    if (page.length < SCAN_PAGE) return rows;
    const last = page.at(-1)!.occurredAt;
    // The memories of the last instant already read are skipped on the next page.
    skip = page.filter((memory) => memory.occurredAt === last).length + (until === last ? skip : 0);
    until = last;
  }
}

const isFresh = (entry: ScanEntry) =>
  entry.rows !== undefined && Date.now() - entry.at < Math.max(SCAN_FRESH_MS, SCAN_FRESH_FACTOR * entry.took);

/** How long a page waits for a pass before answering without it, ms. */
export const SCAN_WAIT_MS = 1500;

/**
 * Every memory of the view's scope matching `filters` as read now, waited for: a destructive
 * action decides on what is there now, never on a kept pass.
 */
export function scanNow(request: UiRequest, filters: ScanFilters): Promise<ScanRow[]> {
  return readAll(request, filters);
}

/**
 * Every memory of the view's scope matching `filters`, as {@link ScanRow}s, from a kept pass
 * while it is fresh. Otherwise a new pass starts and is waited for at most `waitMs`: if it takes
 * longer, the last pass's rows are answered if there are any, else undefined (the pass goes on,
 * and a later visit finds it).
 */
export async function scanMemories(
  request: UiRequest,
  filters: ScanFilters,
  waitMs = SCAN_WAIT_MS,
): Promise<ScanRow[] | undefined> {
  const key = JSON.stringify([request.viewScope ?? null, filters]);
  request.state.scans ??= new Map();
  const scans = request.state.scans;
  const kept = scans.get(key);
  if (kept && isFresh(kept)) return kept.rows;
  let entry = kept;
  if (!entry?.pending) {
    const started = Date.now();
    const next: ScanEntry = { ...(entry ?? { at: 0, took: 0 }) };
    next.pending = readAll(request, filters).then(
      (rows) => {
        if (scans.get(key) === next) {
          next.rows = rows;
          next.at = Date.now();
          next.took = Date.now() - started;
          delete next.pending;
        }
        return rows;
      },
      (error: unknown) => {
        // The pass failed: the next visit tries again; the visit waiting on it sees the error.
        if (scans.get(key) === next) scans.delete(key);
        throw error;
      },
    );
    // A pass nobody waits for any more must not end as an unhandled rejection.
    next.pending.catch(() => undefined);
    scans.delete(key);
    scans.set(key, next);
    if (scans.size > SCAN_CAPACITY) scans.delete(scans.keys().next().value!);
    entry = next;
  }
  const stale = entry.rows;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    return (await Promise.race([entry.pending, late])) ?? stale;
  } finally {
    clearTimeout(timer);
  }
}

/** Forget every kept pass: the view changed memories. */
export function dropScans(request: Pick<UiRequest, 'state'>): void {
  request.state.scans?.clear();
}
