/** The memory list: one page of the scope's memories, filtered, with the total from `count`. */
import type { Memory } from '../../index.js';
import { link, scopeOption, type UiRequest } from './ui-context.js';
import { filterInputs, filterOptions, filterValues, scopeInputs } from './ui-filters.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';

/** Rows per page of every list. */
export const PAGE_SIZE = 50;

/** The state of a memory in words: current, invalid since a date, or superseded. */
export function validityOf(memory: Memory): string {
  if (!memory.validTo) return 'current';
  return memory.supersededBy
    ? `superseded ${memory.validTo.slice(0, 10)}`
    : `invalid since ${memory.validTo.slice(0, 10)}`;
}

/** A table of memories linking to their pages. */
export function memoryTable(request: UiRequest, memories: readonly Memory[], caption: string): SafeHtml {
  if (memories.length === 0) return html`<p class="muted">No memories.</p>`;
  return html`<table class="rows"><caption>${caption}</caption><thead><tr><th scope="col">memory</th><th scope="col">kind</th><th scope="col">category</th><th scope="col">occurred</th><th scope="col">validity</th></tr></thead><tbody>${memories.map(
    (memory) =>
      html`<tr data-row><td><a href="${link(request, `/memory/${encodeURIComponent(memory.id)}`)}">${memory.abstract || memory.content.slice(0, 200)}</a></td><td>${memory.kind}</td><td>${memory.category}</td><td>${shortTime(memory.occurredAt)}</td><td>${validityOf(memory)}</td></tr>`,
  )}</tbody></table>`;
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

/** GET /memories */
export async function memoriesPage(request: UiRequest): Promise<{ title: string; body: SafeHtml }> {
  const values = filterValues(request.input);
  const cursor = cursorOf(request.input);
  const filters = filterOptions(values);
  // The cursor came from a page that already met the filter's own `until`, so it is the tighter bound.
  const until = cursor.before ?? filters.until;
  const memories = await request.client.list({
    ...filters,
    ...scopeOption(request),
    ...(until === undefined ? {} : { until }),
    orderBy: 'occurredAt',
    limit: PAGE_SIZE + 1,
    offset: cursor.skip,
  });
  const shown = memories.slice(0, PAGE_SIZE);
  const more = memories.length > PAGE_SIZE;
  const next = more ? nextCursor(shown, cursor) : undefined;
  const nav = html`<nav class="pager" aria-label="Pages of results">${
    cursor.before ? html`<a href="${link(request, '/memories', { ...values })}">⇤ Newest</a>` : ''
  }${next ? html`<a rel="next" href="${link(request, '/memories', { ...values, before: next.before, skip: next.skip })}">Older →</a>` : html`<span>end of the list</span>`}</nav>`;
  return {
    title: 'Memories',
    body: html`<form method="get" action="/memories" class="filter-form" role="search" aria-label="Filter memories">${scopeInputs(request)}${filterInputs(values)}<button type="submit">Filter</button></form>
${nav}
${memoryTable(request, shown, cursor.before ? `Memories that occurred before ${cursor.before.slice(0, 16)}, newest first` : 'Memories, newest first')}
${nav}`,
  };
}
