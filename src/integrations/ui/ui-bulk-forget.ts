/**
 * POST /memories/forget: forget the selected memories (`id`, repeated) or every one the filters
 * match (`all=filtered`), asked for on a confirmation page like the single forget, then done
 * through the client. The targets are what the view can see: a scoped client never finds another
 * user's memory, and an admin view that chose a scope forgets only inside it.
 */
import type { Memory } from '../../index.js';
import { formFields, inView, link, type UiRequest } from './ui-context.js';
import { filterOptions, filterValues } from './ui-filters.js';
import { html, type SafeHtml } from './ui-html.js';
import type { PageResult } from './ui-page-memory.js';
import { dropScans, scanNow } from './ui-scan.js';

/** Ids one selection may name. */
const MAX_SELECTED = 5000;
/** Memories the confirmation lists by name; the rest are counted. */
const SHOWN = 12;
/** Ids per forget call. */
const FORGET_BATCH = 1000;

const plural = (count: number) => `${count} ${count === 1 ? 'memory' : 'memories'}`;

/** The selected memories the view can see (unknown ids and other scopes' fall away). */
async function selected(request: UiRequest): Promise<Memory[]> {
  const ids = [...new Set(request.input.getAll('id').map((id) => id.trim()))].filter(
    (id) => id !== '' && id.length <= 256,
  );
  const found = await Promise.all(
    ids.slice(0, MAX_SELECTED).map((id) => request.client.get(id).catch(() => undefined)),
  );
  return found.filter((memory): memory is Memory => memory !== undefined && inView(request, memory.scope));
}

interface Targets {
  ids: string[];
  /** Up to {@link SHOWN} of them, read in full for the confirmation. */
  shown: Memory[];
  /** Bookmarked memories the filter matched and left out (a user chose to keep them). */
  keptBookmarked: number;
}

async function targetsOf(request: UiRequest, filtered: boolean, withBookmarked: boolean): Promise<Targets> {
  if (!filtered) {
    const memories = await selected(request);
    return { ids: memories.map((memory) => memory.id), shown: memories.slice(0, SHOWN), keptBookmarked: 0 };
  }
  // A destructive act decides on what is there now: a fresh pass, not one kept for paging.
  const rows = await scanNow(request, filterOptions(filterValues(request.input)));
  const chosen = withBookmarked ? rows : rows.filter((row) => !row.bookmarked);
  const shown = await Promise.all(
    chosen.slice(0, SHOWN).map((row) => request.client.get(row.id).catch(() => undefined)),
  );
  return {
    ids: chosen.map((row) => row.id),
    shown: shown.filter((memory): memory is Memory => memory !== undefined),
    keptBookmarked: rows.length - chosen.length,
  };
}

function listOf(targets: Targets): SafeHtml {
  const more = targets.ids.length - targets.shown.length;
  return html`<ul class="doomed">${targets.shown.map(
    (memory) => html`<li>${memory.abstract || memory.content.slice(0, 200)}</li>`,
  )}${more > 0 ? html`<li class="muted">and ${plural(more)} more</li>` : ''}</ul>`;
}

function confirmPage(request: UiRequest, targets: Targets, filtered: boolean, changed: string | undefined): PageResult {
  const values = filterValues(request.input);
  const back = link(request, '/memories', { ...values });
  const count = targets.ids.length;
  const hidden = filtered
    ? html`<input type="hidden" name="all" value="filtered">${Object.entries(values).map(
        ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
      )}<input type="hidden" name="expected" value="${count}">${
        request.input.get('bookmarked') === 'include'
          ? html`<input type="hidden" name="bookmarked" value="include">`
          : ''
      }`
    : targets.ids.map((id) => html`<input type="hidden" name="id" value="${id}">`);
  const kept =
    targets.keptBookmarked > 0
      ? html`<p>${plural(targets.keptBookmarked)} the filter matches ${targets.keptBookmarked === 1 ? 'is' : 'are'} bookmarked and kept. <label><input type="checkbox" name="bookmarked" value="include" form="bulk-include"> forget ${targets.keptBookmarked === 1 ? 'it' : 'them'} too</label></p>
<form method="post" action="/memories/forget" id="bulk-include">${formFields(request)}<input type="hidden" name="all" value="filtered">${Object.entries(
          values,
        ).map(
          ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
        )}<button type="submit">Ask again with them</button></form>`
      : '';
  return {
    title: 'Confirm: forget',
    body: html`${changed ? html`<p class="notice warn" role="status">${changed}</p>` : ''}<div role="alertdialog" aria-labelledby="confirm-question" class="confirm">
<h2 id="confirm-question">Forget ${plural(count)} for good?</h2>
<p>${filtered ? 'Every memory the filters match in this view' : 'The selected memories'} ${count === 1 ? 'is' : 'are'} deleted from the store. This cannot be undone.</p>
${listOf(targets)}${kept}
<form method="post" action="/memories/forget">${formFields(request)}${hidden}<input type="hidden" name="confirm" value="yes"><button type="submit" class="danger" autofocus>Yes, forget ${plural(count)}</button>
<a href="${back}">Cancel</a></form></div>`,
  };
}

/** POST /memories/forget — without `confirm=yes` it only asks. */
export async function bulkForget(request: UiRequest): Promise<PageResult> {
  const filtered = request.input.get('all') === 'filtered';
  const targets = await targetsOf(request, filtered, request.input.get('bookmarked') === 'include');
  const values = filterValues(request.input);
  if (targets.ids.length === 0) {
    const what = filtered ? 'No memory matches the filters in this view' : 'No memory was selected';
    return { redirect: link(request, '/memories', { ...values, done: `${what}: nothing was forgotten.` }) };
  }
  if (request.input.get('confirm') !== 'yes') return confirmPage(request, targets, filtered, undefined);
  // The filter may match other memories by now than the ones the user was shown: ask again.
  const expected = Number(request.input.get('expected'));
  if (filtered && expected !== targets.ids.length) {
    const was = Number.isInteger(expected) && expected >= 0 ? `, not the ${expected} you were asked about` : '';
    return confirmPage(request, targets, filtered, `The filters now match ${plural(targets.ids.length)}${was}.`);
  }
  let forgotten = 0;
  for (let start = 0; start < targets.ids.length; start += FORGET_BATCH) {
    forgotten += await request.client.forget(targets.ids.slice(start, start + FORGET_BATCH));
  }
  dropScans(request);
  return { redirect: link(request, '/memories', { ...values, done: `Forgot ${plural(forgotten)}.` }) };
}
