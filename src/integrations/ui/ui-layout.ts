/** The frame of every page: navigation, the scope bar, the title, and the content. */
import type { Scope } from '../../index.js';
import { link, scopeParams, type UiRequest } from './ui-context.js';
import { html, type SafeHtml } from './ui-html.js';

/** The pages in the navigation, with their access keys. */
export const NAV: ReadonlyArray<{ path: string; label: string; key: string }> = [
  { path: '/memories', label: 'Memories', key: 'm' },
  { path: '/search', label: 'Search', key: 's' },
  { path: '/sessions', label: 'Sessions', key: 'e' },
  { path: '/procedures', label: 'Procedures', key: 'p' },
  { path: '/entities', label: 'Entities', key: 'n' },
  { path: '/opinions', label: 'Opinions', key: 'o' },
  { path: '/recordings', label: 'Recordings', key: 'r' },
  { path: '/health', label: 'Health', key: 'h' },
];

function describeScope(scope: Scope | undefined): string {
  if (!scope) return 'all scopes';
  return Object.entries(scope)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
}

function scopeBar(request: UiRequest, current: string, clientScope: Scope | undefined): SafeHtml {
  if (!request.admin) {
    return html`<p class="scope" id="scope">Scope: <strong>${describeScope(clientScope)}</strong> (fixed by the command line)</p>`;
  }
  const chosen = scopeParams(request);
  return html`<form class="scope" id="scope" method="get" action="${current}" aria-label="Scope">
<span>Admin view, showing <strong>${describeScope(request.viewScope)}</strong>.</span>
<label>user <input name="userId" value="${chosen.userId ?? ''}" size="10"></label>
<label>agent <input name="agentId" value="${chosen.agentId ?? ''}" size="10"></label>
<label>namespace <input name="namespace" value="${chosen.namespace ?? ''}" size="10"></label>
<button type="submit">Switch scope</button></form>`;
}

/** A whole page. */
export function layout(
  request: UiRequest,
  page: { title: string; current: string; body: SafeHtml; clientScope: Scope | undefined },
): SafeHtml {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · memoir</title><link rel="stylesheet" href="/assets/ui.css"><script src="/assets/ui.js" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><span class="brand">memoir</span><nav aria-label="Pages"><ul>${NAV.map(
    (item) =>
      html`<li><a href="${link(request, item.path)}" accesskey="${item.key}"${item.path === page.current ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  )}</ul></nav>${request.readOnly ? html`<span class="badge">read-only</span>` : ''}</header>
${scopeBar(request, page.current, page.clientScope)}
<main id="main" tabindex="-1"><h1>${page.title}</h1>
${page.body}</main>
<footer>Keys: <kbd>/</kbd> search · <kbd>j</kbd>/<kbd>k</kbd> next/previous row · <kbd>Enter</kbd> open · <kbd>Alt</kbd>+letter a page.</footer>
</body></html>`;
}

/** Previous / next links around page `page` of a list; `more` says whether a next page exists. */
export function pager(request: UiRequest, path: string, page: number, more: boolean): SafeHtml {
  return html`<nav class="pager" aria-label="Pages of results"><span>page ${page}</span>${
    page > 1 ? html`<a rel="prev" href="${link(request, path, { page: page - 1 })}">← Previous</a>` : ''
  }${more ? html`<a rel="next" href="${link(request, path, { page: page + 1 })}">Next →</a>` : ''}</nav>`;
}
