/** The filters the memory list and search share (kind, category, entity, session, time), read from parameters and shown as a form. */
import { type ListOptions, MEMORY_KINDS } from '../../index.js';
import { scopeParams, type UiRequest } from './ui-context.js';
import { html, type SafeHtml } from './ui-html.js';

/** The filter values as given, for links and the form. */
export interface FilterValues {
  kind?: string;
  category?: string;
  entity?: string;
  session?: string;
  since?: string;
  until?: string;
}

const NAMES = ['kind', 'category', 'entity', 'session', 'since', 'until'] as const;

/** The filter values of a request. */
export function filterValues(input: URLSearchParams): FilterValues {
  const values: FilterValues = {};
  for (const name of NAMES) {
    const value = input.get(name)?.trim();
    if (value) values[name] = value.slice(0, 500);
  }
  return values;
}

/** The filters as the client's options (the client validates them: a bad `since` is its ValidationError). */
export function filterOptions(
  values: FilterValues,
): Pick<ListOptions, 'kinds' | 'categories' | 'entities' | 'sessionId' | 'since' | 'until'> {
  return {
    ...(values.kind ? { kinds: [values.kind as (typeof MEMORY_KINDS)[number]] } : {}),
    ...(values.category ? { categories: [values.category] } : {}),
    ...(values.entity ? { entities: [values.entity] } : {}),
    ...(values.session ? { sessionId: values.session } : {}),
    ...(values.since ? { since: values.since } : {}),
    ...(values.until ? { until: values.until } : {}),
  };
}

/** The filter inputs (inside a form the caller opens). */
export function filterInputs(values: FilterValues): SafeHtml {
  return html`<fieldset class="filters"><legend>Filters</legend>
<label>kind <select name="kind"><option value="">any</option>${MEMORY_KINDS.map(
    (kind) => html`<option${values.kind === kind ? html` selected` : ''}>${kind}</option>`,
  )}</select></label>
<label>category <input name="category" value="${values.category ?? ''}" size="10"></label>
<label>entity <input name="entity" value="${values.entity ?? ''}" size="10"></label>
<label>session <input name="session" value="${values.session ?? ''}" size="14"></label>
<label>since <input name="since" value="${values.since ?? ''}" size="13" placeholder="30d, 2025-11-01"></label>
<label>until <input name="until" value="${values.until ?? ''}" size="11" placeholder="2025-11-30"></label>
</fieldset>`;
}

/** Hidden inputs that keep the view's scope in a GET form. */
export function scopeInputs(request: UiRequest): SafeHtml {
  return html`${Object.entries(scopeParams(request)).map(([name, value]) =>
    value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`,
  )}`;
}
