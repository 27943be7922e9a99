/**
 * The memory list: one page of the scope's memories, filtered and sorted on the server, each row
 * saying whose it is, with boxes to select rows for a bulk forget (ui-bulk-forget.ts).
 */
import type { Memory } from '../../index.js';
import { formFields, link, pageNumber, scopeOption, type UiRequest } from './ui-context.js';
import { type FilterValues, filterInputs, filterOptions, filterValues, scopeInputs } from './ui-filters.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';
import { emptyState, notice, pager, scopeChips } from './ui-layout.js';
import { scanMemories } from './ui-scan.js';
import { nextDir, type Sort, type SortKey, sortOf, sortParams, sortRows } from './ui-sorting.js';

/** Rows per page of every list. */
export const PAGE_SIZE = 50;

/** The state of a memory in words: current, invalid since a date, or superseded. */
export function validityOf(memory: Memory): string {
  if (!memory.validTo) return 'current';
  return memory.supersededBy
    ? `superseded ${memory.validTo.slice(0, 10)}`
    : `invalid since ${memory.validTo.slice(0, 10)}`;
}

/** How the table is drawn: whether rows can be selected, and the order its headers link to. */
interface TableOptions {
  /** Checkboxes for a bulk forget (the caller wraps the table in that form). */
  selectable?: boolean;
  /** The list's order and filters, for sortable column headers. */
  sorting?: { sort: Sort; values: FilterValues };
}

const COLUMNS: ReadonlyArray<{ label: string; key?: SortKey }> = [
  { label: 'memory' },
  { label: 'scope', key: 'user' },
  { label: 'kind' },
  { label: 'category', key: 'category' },
  { label: 'importance', key: 'importance' },
  { label: 'occurred', key: 'date' },
  { label: 'validity' },
];

function header(request: UiRequest, column: (typeof COLUMNS)[number], options: TableOptions): SafeHtml {
  const sorting = options.sorting;
  if (!sorting || column.key === undefined) return html`<th scope="col">${column.label}</th>`;
  const active = sorting.sort.key === column.key;
  const ariaSort = active ? (sorting.sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  const href = link(request, '/memories', {
    ...sorting.values,
    sort: column.key,
    dir: nextDir(sorting.sort, column.key),
  });
  const arrow = active ? (sorting.sort.dir === 'asc' ? '↑' : '↓') : '↕';
  return html`<th scope="col"${ariaSort ? html` aria-sort="${ariaSort}"` : ''}><a class="sort${active ? ' active' : ''}" href="${href}">${column.label}<span class="arrow" aria-hidden="true">${arrow}</span></a></th>`;
}

/** A table of memories linking to their pages, each row with its scope. */
export function memoryTable(
  request: UiRequest,
  memories: readonly Memory[],
  caption: string,
  options: TableOptions = {},
): SafeHtml {
  if (memories.length === 0) return emptyState('No memories here.');
  const select = options.selectable === true;
  return html`<div class="table-wrap"><table class="rows memories"><caption>${caption}</caption><thead><tr>${
    select
      ? html`<th scope="col" class="pick"><input type="checkbox" data-select-all aria-label="Select every memory on this page"></th>`
      : ''
  }${COLUMNS.map((column) => header(request, column, options))}</tr></thead><tbody>${memories.map((memory) => {
    const text = memory.abstract || memory.content.slice(0, 200);
    return html`<tr data-row${memory.validTo ? html` class="stale"` : ''}>${
      select
        ? html`<td class="pick"><input type="checkbox" name="id" value="${memory.id}" aria-label="${`Select: ${text.slice(0, 80)}`}"></td>`
        : ''
    }<td class="text"><a href="${link(request, `/memory/${encodeURIComponent(memory.id)}`)}">${text}</a></td><td class="scope">${scopeChips(memory.scope)}</td><td><span class="kind kind-${memory.kind}">${memory.kind}</span></td><td>${memory.category}</td><td class="num">${memory.importance.toFixed(2)}</td><td class="when">${shortTime(memory.occurredAt)}</td><td class="validity">${validityOf(memory)}</td></tr>`;
  })}</tbody></table></div>`;
}

/**
 * The cursor of a page: memories that occurred at or before `before`, skipping the first `skip`
 * of them (the ones of that very instant already shown). Keyset paging on `occurredAt`, so a page
 * deep in 100,000 memories costs what the first one does (an offset would step over every row).
 */
function cursorOf(input: URLSearchParams): { before?: string; skip: number } {
  const before = input.get('before') ?? undefined;
  const skip = Number(input.get('skip') ?? '0');
  return {
    ...(before && !Number.isNaN(Date.parse(before)) ? { before: new Date(before).toISOString() } : {}),
    skip: Number.isInteger(skip) && skip >= 0 && skip <= 10_000 ? skip : 0,
  };
}

/** The cursor after a page: its last memory's time, and how many of the page share that time. */
function nextCursor(
  page: readonly Memory[],
  previous: { before?: string; skip: number },
): { before: string; skip: number } {
  const last = page.at(-1)!.occurredAt;
  const ties = page.filter((memory) => memory.occurredAt === last).length;
  return { before: last, skip: ties + (previous.before === last ? previous.skip : 0) };
}

interface ListPage {
  memories: Memory[];
  nav: SafeHtml;
  caption: string;
  /** True while the pass an order needs is still running (the page says so instead of a table). */
  pending?: boolean;
}

/** Newest first: keyset pages on `occurredAt`. */
async function newestFirst(request: UiRequest, values: FilterValues): Promise<ListPage> {
  const cursor = cursorOf(request.input);
  const filters = filterOptions(values);
  // The cursor came from a page that already met the filter's own `until`, so it is the tighter bound.
  const until = cursor.before ?? filters.until;
  const found = await request.client.list({
    ...filters,
    ...scopeOption(request),
    ...(until === undefined ? {} : { until }),
    orderBy: 'occurredAt',
    limit: PAGE_SIZE + 1,
    offset: cursor.skip,
  });
  const memories = found.slice(0, PAGE_SIZE);
  const next = found.length > PAGE_SIZE ? nextCursor(memories, cursor) : undefined;
  const nav =
    cursor.before || next
      ? html`<nav class="pager" aria-label="Pages of results">${
          cursor.before ? html`<a href="${link(request, '/memories', { ...values })}">⇤ Newest</a>` : ''
        }${next ? html`<a rel="next" href="${link(request, '/memories', { ...values, before: next.before, skip: next.skip })}">Older →</a>` : html`<span>end of the list</span>`}</nav>`
      : html``;
  const caption = cursor.before
    ? `Memories that occurred before ${cursor.before.slice(0, 16)}, newest first`
    : 'Memories, newest first';
  return { memories, nav, caption };
}

/** Oldest first, or by importance: orders the store keeps, paged by offset. */
async function storeOrder(request: UiRequest, values: FilterValues, sort: Sort): Promise<ListPage> {
  const page = pageNumber(request.input);
  const found = await request.client.list({
    ...filterOptions(values),
    ...scopeOption(request),
    orderBy: sort.key === 'importance' ? 'importance' : 'occurredAt',
    direction: sort.dir,
    limit: PAGE_SIZE + 1,
    offset: (page - 1) * PAGE_SIZE,
  });
  const words =
    sort.key === 'importance'
      ? `most important ${sort.dir === 'desc' ? 'first' : 'last'}`
      : `${sort.dir === 'asc' ? 'oldest' : 'newest'} first`;
  return {
    memories: found.slice(0, PAGE_SIZE),
    nav: pager(request, '/memories', page, found.length > PAGE_SIZE, { ...values, ...sortParams(sort) }),
    caption: `Memories, ${words}`,
  };
}

/** By user or category: a pass over the scope, sorted here, the page's memories read by id. */
async function scanOrder(request: UiRequest, values: FilterValues, sort: Sort): Promise<ListPage> {
  const page = pageNumber(request.input);
  const scanned = await scanMemories(request, filterOptions(values));
  const by = sort.key === 'user' ? 'user' : 'category';
  if (scanned === undefined) {
    return {
      memories: [],
      nav: html`<p class="notice warn" role="status">Sorting the memories by ${by}… <a href="${link(request, '/memories', { ...values, ...sortParams(sort), page })}">Reload</a> in a few seconds.</p>`,
      caption: '',
      pending: true,
    };
  }
  const rows = sortRows(scanned, sort);
  const slice = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const memories = (await Promise.all(slice.map((row) => request.client.get(row.id).catch(() => undefined)))).filter(
    (memory): memory is Memory => memory !== undefined,
  );
  return {
    memories,
    nav: pager(request, '/memories', page, rows.length > page * PAGE_SIZE, { ...values, ...sortParams(sort) }),
    caption: `Memories by ${by}, ${sort.dir === 'asc' ? 'A to Z' : 'Z to A'}, newest first within each`,
  };
}

function bulkBar(request: UiRequest, values: FilterValues, total: number, filtered: boolean): SafeHtml {
  if (request.readOnly || total === 0) return html``;
  const matching = filtered || request.viewScope ? 'matching' : 'in this view';
  return html`<div class="bulk" role="group" aria-label="Bulk actions">${formFields(request)}${Object.entries(
    values,
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit" class="danger">Forget selected…</button><button type="submit" name="all" value="filtered" class="danger subtle">Forget all ${total} ${matching}…</button><span class="hint">Each asks before anything is deleted.</span></div>`;
}

/** GET /memories */
export async function memoriesPage(request: UiRequest): Promise<{ title: string; body: SafeHtml }> {
  const values = filterValues(request.input);
  const sort = sortOf(request.input);
  const filtered = Object.keys(values).length > 0;
  const [list, total] = await Promise.all([
    sort.key === 'date' && sort.dir === 'desc'
      ? newestFirst(request, values)
      : sort.key === 'date' || sort.key === 'importance'
        ? storeOrder(request, values, sort)
        : scanOrder(request, values, sort),
    request.client.count({ ...filterOptions(values), ...scopeOption(request) }),
  ]);
  const table = list.pending
    ? html``
    : list.memories.length === 0
      ? emptyState(
          filtered ? 'No memory matches these filters.' : 'No memories yet.',
          filtered
            ? html`<a href="${link(request, '/memories')}">Clear the filters</a>`
            : html`An agent fills this list with <code>retain</code>; from a shell, <code>memoir retain "…"</code>.`,
        )
      : memoryTable(request, list.memories, list.caption, { selectable: !request.readOnly, sorting: { sort, values } });
  const sortField = sort.given
    ? html`<input type="hidden" name="sort" value="${sort.key}"><input type="hidden" name="dir" value="${sort.dir}">`
    : '';
  return {
    title: 'Memories',
    body: html`${notice(request)}<form method="get" action="/memories" class="filter-form" role="search" aria-label="Filter memories">${scopeInputs(request)}${sortField}${filterInputs(values)}<div class="filter-actions"><button type="submit" class="primary">Filter</button>${
      filtered ? html`<a href="${link(request, '/memories', sortParams(sort))}">Clear</a>` : ''
    }</div></form>
<p class="summary"><strong data-count>${total}</strong> ${total === 1 ? 'memory' : 'memories'}${filtered ? ' match the filters' : ''}${
      request.viewScope || !request.admin
        ? ''
        : html` across every user · <a href="${link(request, '/users')}">counts per user</a>`
    }</p>
<form method="post" action="/memories/forget" class="bulk-form" aria-label="Select memories to forget">${bulkBar(request, values, total, filtered)}
${list.nav}
${table}
</form>
${list.pending ? '' : list.nav}`,
  };
}
