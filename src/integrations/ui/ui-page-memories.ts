/** The memory list: one page of the scope's memories, filtered, with the total from `count`. */
import type { Memory } from '../../index.js';
import { link, pageNumber, scopeOption, type UiRequest } from './ui-context.js';
import { filterInputs, filterOptions, filterValues, scopeInputs } from './ui-filters.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';
import { pager } from './ui-layout.js';

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

/** GET /memories */
export async function memoriesPage(request: UiRequest): Promise<{ title: string; body: SafeHtml }> {
  const values = filterValues(request.input);
  const page = pageNumber(request.input);
  const options = { ...filterOptions(values), ...scopeOption(request) };
  const [memories, total] = await Promise.all([
    request.client.list({ ...options, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    request.client.count(options),
  ]);
  return {
    title: 'Memories',
    body: html`<form method="get" action="/memories" class="filter-form" role="search" aria-label="Filter memories">${scopeInputs(request)}${filterInputs(values)}<button type="submit">Filter</button></form>
${pager(request, '/memories', page, PAGE_SIZE, total, { ...values })}
${memoryTable(request, memories, `Memories, newest first, page ${page}`)}
${pager(request, '/memories', page, PAGE_SIZE, total, { ...values })}`,
  };
}
