/**
 * Health: counts by kind and category, growth over time, recall latency percentiles — from
 * counts the store answers without reading memories — and, on request, the doctor's report and
 * the full statistics (pending embeddings, size), which pass over the store and are kept until
 * asked for again.
 */
import { KNOWN_CATEGORIES, MEMORY_KINDS } from '../../index.js';
import { barChart, type Datum, lineChart } from './ui-charts.js';
import { formFields, type HealthFigures, link, scopeOption, type UiRequest } from './ui-context.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';

type Page = { title: string; body: SafeHtml };

/** Months of growth shown. */
const MONTHS = 12;

function monthEnds(now: Date): Date[] {
  const ends: Date[] = [];
  for (let back = MONTHS - 1; back >= 0; back--) {
    ends.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 1) - 1));
  }
  return ends;
}

function doctorSection(request: UiRequest): SafeHtml {
  const last = request.state.doctor;
  const button = html`<form method="post" action="/health/doctor" class="inline">${formFields(request)}<button type="submit">Run doctor</button></form>`;
  if (!last) return html`<p>No doctor report yet. ${button}</p>`;
  const { report } = last;
  return html`<p>Last report ${shortTime(last.at)}: <strong class="${report.ok ? 'ok' : 'bad'}">${report.ok ? 'no problems' : `${report.problems.length} problem(s)`}</strong> (store ${report.store}, ${report.method}). ${button}</p>${
    report.problems.length > 0
      ? html`<ul>${report.problems.map((problem) => html`<li>${problem}</li>`)}</ul>${report.suggestion ? html`<p>${report.suggestion}</p>` : ''}`
      : ''
  }<p>Backups: ${report.backups.count}; procedure files: ${report.procedures.count} readable, ${report.procedures.invalid.length} unreadable.</p>`;
}

function statsSection(request: UiRequest): SafeHtml {
  const last = request.state.stats;
  const button = html`<form method="post" action="/health/stats" class="inline">${formFields(request)}<button type="submit">Count now</button></form>`;
  if (!last)
    return html`<p>Pending embeddings and size are counted by a pass over the scope, on request. ${button}</p>`;
  const { stats } = last;
  return html`<p>Counted ${shortTime(last.at)}: <strong data-pending>${stats.pendingEmbeddings}</strong> memories waiting for an embedding; ${(stats.bytes / 1024 / 1024).toFixed(1)} MB (${stats.quota.usedPercent.toFixed(1)} % of ${stats.quota.maxSizeMb} MB). ${button}</p>`;
}

/** How long counted figures are shown before a visit starts a recount. */
const FRESH_MS = 60_000;
/** How long a visit waits for a recount before answering with the figures it has. */
const WAIT_MS = 120;

async function countFigures(request: UiRequest): Promise<HealthFigures> {
  const scope = scopeOption(request);
  const count = (options: Parameters<typeof request.client.count>[0] = {}) =>
    request.client.count({ ...scope, ...options });
  const ends = monthEnds(new Date());
  const at = new Date().toISOString();
  const [total, current, byKind, byCategory, growth] = await Promise.all([
    count(),
    count({ includeInvalid: false }),
    Promise.all(MEMORY_KINDS.map((kind) => count({ kinds: [kind] }))),
    Promise.all(KNOWN_CATEGORIES.map((category) => count({ categories: [category] }))),
    Promise.all(ends.map((end) => count({ until: end.toISOString() }))),
  ]);
  const known = byCategory.reduce((sum, value) => sum + value, 0);
  return {
    at,
    total,
    current,
    byKind: MEMORY_KINDS.map((label, index) => ({ label, value: byKind[index]! })),
    byCategory: KNOWN_CATEGORIES.map((label, index): Datum => ({ label, value: byCategory[index]! }))
      .filter((datum) => datum.value > 0)
      .concat(total - known > 0 ? [{ label: 'other', value: total - known }] : []),
    growth: ends.map((end, index) => ({ label: end.toISOString().slice(0, 7), value: growth[index]! })),
  };
}

/**
 * The figures for this view's scope: the counted ones while fresh; otherwise a recount starts
 * in the background, and the page waits for it only briefly — at 100,000 memories the 28 counts
 * take longer than a page may, so the page shows the last figures, dated, until they are in.
 */
async function figuresFor(request: UiRequest): Promise<{ figures?: HealthFigures; counting: boolean }> {
  const key = JSON.stringify(request.viewScope ?? {});
  request.state.health ??= new Map();
  const cache = request.state.health;
  const entry = cache.get(key) ?? {};
  cache.set(key, entry);
  const fresh = entry.figures && Date.now() - Date.parse(entry.figures.at) < FRESH_MS;
  if (!fresh && !entry.pending) {
    entry.pending = countFigures(request)
      .then((figures) => {
        entry.figures = figures;
      })
      .catch(() => undefined)
      .finally(() => {
        entry.pending = undefined;
      });
  }
  if (entry.pending) await Promise.race([entry.pending, new Promise((done) => setTimeout(done, WAIT_MS))]);
  return { ...(entry.figures ? { figures: entry.figures } : {}), counting: entry.pending !== undefined };
}

/** GET /health */
export async function healthPage(request: UiRequest): Promise<Page> {
  const { figures, counting } = await figuresFor(request);
  const { latency } = request.state;
  const percentiles = [50, 90, 95, 99].flatMap((p) => {
    const value = latency.percentile(p);
    return value === undefined ? [] : [{ label: `p${p}`, value: Math.round(value * 10) / 10 }];
  });
  const counts = figures
    ? html`<p class="summary"><strong data-total>${figures.total}</strong> memories, ${figures.current} current, ${figures.total - figures.current} invalidated or superseded <span class="muted">(counted ${shortTime(figures.at)}${counting ? ', recounting' : ''})</span>.</p>
<div class="charts">
${barChart('Memories by kind', figures.byKind)}
${barChart('Memories by category', figures.byCategory)}
${lineChart('Memories by month they occurred in (cumulative)', figures.growth, { unit: 'memories' })}
${barChart(`Recall latency over the last ${latency.count} recall(s), ms`, percentiles, 'ms')}
</div>`
    : html`<p class="summary" role="status">Counting the memories… <a href="${link(request, '/health')}">reload</a> in a moment.</p>`;
  return {
    title: 'Health',
    body: html`${counts}
<h2>Embeddings and size</h2>${statsSection(request)}
<h2>Doctor</h2>${doctorSection(request)}`,
  };
}

/** POST /health/doctor */
export async function runDoctor(request: UiRequest): Promise<{ redirect: string }> {
  request.state.doctor = { at: new Date().toISOString(), report: await request.client.doctor() };
  return { redirect: link(request, '/health') };
}

/** POST /health/stats */
export async function runStats(request: UiRequest): Promise<{ redirect: string }> {
  request.state.stats = { at: new Date().toISOString(), stats: await request.client.stats() };
  return { redirect: link(request, '/health') };
}
