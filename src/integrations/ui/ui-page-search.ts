/**
 * Search: recall with `explain`, each result's score broken down (lexical, vector, the boosts —
 * entity, time, importance, recency…), its citation, the filters, and the token cost of the
 * block `formatContext` would put into a prompt.
 */

import { loadTokenCounter } from '../../core/utils/token-counter.js';
import type { RecallResult } from '../../index.js';
import { link, scopeOption, type UiRequest } from './ui-context.js';
import { filterInputs, filterOptions, filterValues, scopeInputs } from './ui-filters.js';
import { html, type SafeHtml } from './ui-html.js';
import { emptyState, scopeChips } from './ui-layout.js';
import { validityOf } from './ui-page-memories.js';

const fixed = (value: number | undefined, digits = 3) => (value === undefined ? '—' : value.toFixed(digits));

function breakdown(result: RecallResult): SafeHtml {
  const { lexical, vector, fused, boosts } = result.breakdown;
  const list = (name: string, evidence: typeof lexical) =>
    html`<tr><th scope="row">${name}</th><td>${evidence ? `rank ${evidence.rank}` : 'not found'}</td><td class="num">${evidence ? fixed(evidence.score) : '—'}</td><td class="num">${evidence ? fixed(evidence.contribution) : '—'}</td></tr>`;
  return html`<table class="breakdown"><caption>Score ${fixed(result.score)}: how it ranked</caption><thead><tr><th scope="col">signal</th><th scope="col">rank / factor</th><th scope="col">list score</th><th scope="col">contribution</th></tr></thead><tbody>
${list('lexical', lexical)}${list('vector', vector)}
<tr><th scope="row">fused</th><td></td><td></td><td class="num">${fixed(fused)}</td></tr>
${boosts.map((boost) => html`<tr><th scope="row">${boost.name}</th><td>× ${fixed(boost.factor)}</td><td></td><td></td></tr>`)}
</tbody></table>${result.explanation ? html`<p class="explanation">${result.explanation}</p>` : ''}`;
}

/** GET /search */
export async function searchPage(request: UiRequest): Promise<{ title: string; body: SafeHtml }> {
  const text = request.input.get('q')?.trim() ?? '';
  const values = filterValues(request.input);
  const kValue = Number(request.input.get('k') ?? '10');
  const k = Number.isInteger(kValue) && kValue >= 1 && kValue <= 100 ? kValue : 10;
  const form = html`<form method="get" action="/search" role="search" aria-label="Search memories" class="filter-form">${scopeInputs(request)}
<label>Query <input id="q" name="q" type="search" value="${text}" size="40" data-search autofocus></label>
<label>results <input name="k" value="${k}" size="3" inputmode="numeric"></label>
${filterInputs(values)}<div class="filter-actions"><button type="submit" class="primary">Search</button></div></form>`;
  if (text === '')
    return {
      title: 'Search',
      body: html`${form}<p class="muted">Type a query: recall runs as the agent's would, and shows why each memory ranked.</p>`,
    };

  const started = performance.now();
  const response = await request.client.recall(text, {
    ...filterOptions(values),
    ...scopeOption(request),
    k,
    explain: true,
  });
  const elapsed = performance.now() - started;
  const block = request.client.formatContext(response);
  const tokens = (await loadTokenCounter())(block);
  return {
    title: 'Search',
    body: html`${form}
<p class="summary" role="status">${response.results.length} result(s) in ${elapsed.toFixed(0)} ms${
      response.intent ? html`, answered as <strong>${response.intent.kind}</strong>` : ''
    }. The context block <code>formatContext</code> would produce costs <strong data-tokens>${tokens}</strong> tokens.</p>
${response.results.length === 0 ? emptyState('Nothing recalled.', 'Try other words, or loosen the filters.') : ''}<ol class="results">${response.results.map(
      (
        result,
      ) => html`<li data-row class="result"><p><a href="${link(request, `/memory/${encodeURIComponent(result.memory.id)}`)}">${result.memory.abstract || result.memory.content}</a></p>
<p class="meta-line">${scopeChips(result.memory.scope)} ${result.memory.kind} · ${result.memory.category} · ${validityOf(result.memory)} · cited as <cite>${result.citation}</cite>${
        result.memory.sessionId ? html` · session ${result.memory.sessionId}` : ''
      }${result.confidence === undefined ? '' : html` · confidence ${fixed(result.confidence, 2)}`}</p>
${breakdown(result)}</li>`,
    )}</ol>
<details><summary>The context block (${tokens} tokens)</summary><pre class="text">${block}</pre></details>`,
  };
}
