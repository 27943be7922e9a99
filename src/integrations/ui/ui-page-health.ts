/**
 * Health: counts by kind and category, growth over time, recall latency percentiles — from
 * counts the store answers without reading memories — and, on request, the doctor's report and
 * the full statistics (pending embeddings, size), which pass over the store and are kept until
 * asked for again.
 */
import { KNOWN_CATEGORIES, MEMORY_KINDS } from '../../index.js';
import { barChart, type Datum, lineChart } from './ui-charts.js';
import { formFields, link, scopeOption, type UiRequest } from './ui-context.js';
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

/** GET /health */
export async function healthPage(request: UiRequest): Promise<Page> {
  const scope = scopeOption(request);
  const count = (options: Parameters<typeof request.client.count>[0] = {}) =>
    request.client.count({ ...scope, ...options });
  const ends = monthEnds(new Date());
  const [total, current, byKind, byCategory, growth] = await Promise.all([
    count(),
    count({ includeInvalid: false }),
    Promise.all(MEMORY_KINDS.map((kind) => count({ kinds: [kind] }))),
    Promise.all(KNOWN_CATEGORIES.map((category) => count({ categories: [category] }))),
    Promise.all(ends.map((end) => count({ until: end.toISOString() }))),
  ]);
  const known = byCategory.reduce((sum, value) => sum + value, 0);
  const categories: Datum[] = KNOWN_CATEGORIES.map((label, index): Datum => ({ label, value: byCategory[index]! }))
    .filter((datum) => datum.value > 0)
    .concat(total - known > 0 ? [{ label: 'other', value: total - known }] : []);
  const { latency } = request.state;
  const percentiles = [50, 90, 95, 99].flatMap((p) => {
    const value = latency.percentile(p);
    return value === undefined ? [] : [{ label: `p${p}`, value: Math.round(value * 10) / 10 }];
  });
  return {
    title: 'Health',
    body: html`<p class="summary"><strong data-total>${total}</strong> memories, ${current} current, ${total - current} invalidated or superseded.</p>
<div class="charts">
${barChart(
  'Memories by kind',
  MEMORY_KINDS.map((label, index) => ({ label, value: byKind[index]! })),
)}
${barChart('Memories by category', categories)}
${lineChart(
  'Memories by month they occurred in (cumulative)',
  ends.map((end, index) => ({ label: end.toISOString().slice(0, 7), value: growth[index]! })),
  { unit: 'memories' },
)}
${barChart(`Recall latency over the last ${latency.count} recall(s), ms`, percentiles, 'ms')}
</div>
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
