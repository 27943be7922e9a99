/**
 * A pass over the memories of the view's scope through the client, keeping only what sorting and
 * counting need (id, scope, category, time). The store has no index by user or by category, so
 * those orders and the counts per user come from such a pass; it is kept for a few seconds (pages
 * of one order read the same pass) and dropped on every change the view makes.
 */
import type { ListOptions } from '../../index.js';
import { type ScanRow, scopeOption, type UiRequest } from './ui-context.js';

/** Memories read per call of the pass. */
const SCAN_PAGE = 2000;
/** How long a pass is reused, ms: long enough for paging, short enough that another process's writes show. */
const SCAN_FRESH_MS = 10_000;
/** Passes kept at once (one per scope and filter). */
const SCAN_CAPACITY = 8;

/** The filters of a pass: list's, without order or paging. */
export type ScanFilters = Omit<ListOptions, 'orderBy' | 'direction' | 'limit' | 'offset' | 'scope'>;

/**
 * Every memory of the view's scope matching `filters`, as {@link ScanRow}s. `fresh` reads anew
 * (a destructive action decides on what is there now, never on a kept pass).
 */
export async function scanMemories(request: UiRequest, filters: ScanFilters, fresh = false): Promise<ScanRow[]> {
  const key = JSON.stringify([request.viewScope ?? null, filters]);
  request.state.scans ??= new Map();
  const scans = request.state.scans;
  const kept = scans.get(key);
  if (!fresh && kept && Date.now() - kept.at < SCAN_FRESH_MS) return kept.rows;
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
    if (page.length < SCAN_PAGE) break;
    const last = page.at(-1)!.occurredAt;
    // The memories of the last instant already read are skipped on the next page.
    skip = page.filter((memory) => memory.occurredAt === last).length + (until === last ? skip : 0);
    until = last;
  }
  scans.delete(key);
  scans.set(key, { at: Date.now(), rows });
  if (scans.size > SCAN_CAPACITY) scans.delete(scans.keys().next().value!);
  return rows;
}

/** Forget every kept pass: the view changed memories. */
export function dropScans(request: Pick<UiRequest, 'state'>): void {
  request.state.scans?.clear();
}
