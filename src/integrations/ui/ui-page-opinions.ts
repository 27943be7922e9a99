/** Opinions: beliefs with their confidence, how it moved over time (an SVG chart), and the evidence for and against. */
import { citationOf, type Memory } from '../../index.js';
import { type Datum, lineChart } from './ui-charts.js';
import { link, pageNumber, scopeOption, type UiRequest } from './ui-context.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';
import { emptyState, pager } from './ui-layout.js';
import { PAGE_SIZE, validityOf } from './ui-page-memories.js';

type Page = { title: string; body: SafeHtml };

/** Evidence ids shown per opinion at most. */
const MAX_EVIDENCE = 50;

const confidenceOf = (memory: Memory): number | undefined => {
  const value = memory.metadata.confidence;
  return typeof value === 'number' && value >= 0 && value <= 1 ? value : undefined;
};

const idsIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').slice(0, MAX_EVIDENCE) : [];

/** GET /opinions */
export async function opinionsPage(request: UiRequest): Promise<Page> {
  const page = pageNumber(request.input);
  const options = { ...scopeOption(request), kinds: ['opinion' as const], includeInvalid: false };
  // One more than a page tells whether there is a next one, without counting them all.
  const found = await request.client.list({ ...options, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  const opinions = found.slice(0, PAGE_SIZE);
  return {
    title: 'Opinions',
    body: html`${pager(request, '/opinions', page, found.length > PAGE_SIZE)}${
      opinions.length === 0
        ? emptyState(
            'No opinions yet.',
            'Beliefs the agent forms (kind opinion) appear here with their confidence and how it moved.',
          )
        : html`<div class="table-wrap"><table class="rows"><caption>Current opinions</caption><thead><tr><th scope="col">opinion</th><th scope="col">entities</th><th scope="col">confidence</th><th scope="col">for / against</th></tr></thead><tbody>${opinions.map(
            (opinion) => {
              const confidence = confidenceOf(opinion);
              return html`<tr data-row><td><a href="${link(request, `/opinion/${encodeURIComponent(opinion.id)}`)}">${opinion.abstract || opinion.content}</a></td><td>${opinion.entities.join(', ')}</td><td class="num">${confidence === undefined ? '—' : html`<meter min="0" max="1" value="${confidence}" aria-label="confidence">${confidence}</meter> ${confidence.toFixed(2)}`}</td><td class="num">${idsIn(opinion.metadata.supporting).length} / ${idsIn(opinion.metadata.contradicting).length}</td></tr>`;
            },
          )}</tbody></table></div>`
    }`,
  };
}

/**
 * Confidence points over time: each version of the opinion (when it became true), every change
 * recorded in its metadata `history` ({ at, to }), and the current value.
 */
function confidencePoints(versions: readonly { memory: Memory; from: string }[], current: Memory): Datum[] {
  const points: Array<{ at: string; value: number }> = [];
  for (const version of versions) {
    const value = confidenceOf(version.memory);
    if (value !== undefined) points.push({ at: version.from, value });
  }
  const history = current.metadata.history;
  if (Array.isArray(history)) {
    for (const change of history) {
      const entry = change as { at?: unknown; to?: unknown };
      if (typeof entry.at === 'string' && typeof entry.to === 'number' && entry.to >= 0 && entry.to <= 1) {
        points.push({ at: entry.at, value: entry.to });
      }
    }
  }
  const now = confidenceOf(current);
  if (now !== undefined) points.push({ at: current.updatedAt, value: now });
  points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return points.map((point) => ({ label: point.at.slice(0, 10), value: point.value }));
}

async function evidenceList(request: UiRequest, ids: readonly string[], label: string): Promise<SafeHtml> {
  if (ids.length === 0) return html`<h3>${label}</h3><p class="muted">None recorded.</p>`;
  const found = await Promise.all(ids.map((id) => request.client.get(id).catch(() => undefined)));
  return html`<h3>${label}</h3><ul class="facts">${ids.map((id, index) => {
    const memory = found[index];
    return memory
      ? html`<li data-row><a href="${link(request, `/memory/${encodeURIComponent(id)}`)}">${memory.abstract || memory.content}</a> <cite>${citationOf(memory)}</cite></li>`
      : html`<li><code>${id}</code> <span class="muted">(no longer stored, or outside this scope)</span></li>`;
  })}</ul>`;
}

/** GET /opinion/:id */
export async function opinionPage(request: UiRequest): Promise<Page> {
  const opinion = await request.client.get(request.params[0]!);
  const history = await request.client.history(opinion.id);
  const points = confidencePoints(history.versions, opinion);
  return {
    title: 'Opinion',
    body: html`<p class="lead">${opinion.content}</p>
<p class="meta-line">${validityOf(opinion)} · stored ${shortTime(opinion.createdAt)} · <a href="${link(request, `/memory/${encodeURIComponent(opinion.id)}`)}">the memory</a></p>
<h2>Confidence over time</h2>${lineChart('Confidence over time', points, { min: 0, max: 1, unit: 'confidence' })}
<h2>Evidence</h2>${await evidenceList(request, idsIn(opinion.metadata.supporting), 'Supporting')}${await evidenceList(request, idsIn(opinion.metadata.contradicting), 'Contradicting')}`,
  };
}
