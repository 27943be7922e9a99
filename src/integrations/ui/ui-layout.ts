/** The frame of every page: the header with navigation, the scope bar, the title, and the content. */
import type { Scope } from '../../index.js';
import { link, scopeParams, type UiRequest } from './ui-context.js';
import { html, type SafeHtml } from './ui-html.js';

/** The pages in the navigation, with their access keys. */
export const NAV: ReadonlyArray<{ path: string; label: string; key: string }> = [
  { path: '/memories', label: 'Memories', key: 'm' },
  { path: '/search', label: 'Search', key: 's' },
  { path: '/users', label: 'Users', key: 'u' },
  { path: '/core', label: 'Core block', key: 'c' },
  { path: '/sessions', label: 'Sessions', key: 'e' },
  { path: '/procedures', label: 'Procedures', key: 'p' },
  { path: '/entities', label: 'Entities', key: 'n' },
  { path: '/opinions', label: 'Opinions', key: 'o' },
  { path: '/recordings', label: 'Recordings', key: 'r' },
  { path: '/health', label: 'Health', key: 'h' },
];

const SCOPE_FIELDS = [
  ['userId', 'user'],
  ['agentId', 'agent'],
  ['namespace', 'namespace'],
] as const;

function describeScope(scope: Scope | undefined): string {
  if (!scope) return 'every scope';
  return SCOPE_FIELDS.filter(([key]) => scope[key] !== undefined)
    .map(([key, label]) => `${label} ${scope[key]}`)
    .join(', ');
}

/**
 * Whose a record is, as labelled chips (`user alice`, `agent helper`); a record of no one says so.
 * Names are shown as written, escaped like any text.
 */
export function scopeChips(scope: Scope): SafeHtml {
  const parts = SCOPE_FIELDS.filter(([key]) => scope[key] !== undefined);
  if (parts.length === 0) return html`<span class="muted">no scope</span>`;
  return html`${parts.map(
    ([key, label]) =>
      html`<span class="chip chip-${label}"><span class="chip-key">${label}</span> ${scope[key]!}</span>`,
  )}`;
}

/** What an empty list shows: what would be here, and how it gets filled. */
export function emptyState(title: string, hint: SafeHtml | string = ''): SafeHtml {
  return html`<div class="empty" role="status"><svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true"><path d="M4 5h16v14H4z M4 9h16 M8 13h8 M8 16h5" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/></svg><p class="empty-title">${title}</p>${
    hint === '' ? '' : html`<p class="empty-hint">${hint}</p>`
  }</div>`;
}

/** A notice after a change (`done` in the address), announced to screen readers. */
export function notice(request: Pick<UiRequest, 'input'>): SafeHtml {
  const done = request.input.get('done')?.slice(0, 300);
  return done ? html`<p class="notice" role="status">${done}</p>` : html``;
}

function scopeBar(request: UiRequest, current: string, clientScope: Scope | undefined): SafeHtml {
  if (!request.admin) {
    return html`<div class="scopebar" id="scope"><span class="scope-label">Scope</span> ${scopeChips(clientScope ?? {})} <span class="muted">fixed by the command line</span></div>`;
  }
  const chosen = scopeParams(request);
  return html`<form class="scopebar" id="scope" method="get" action="${current}" aria-label="Scope">
<span class="scope-label">Admin view</span><span>showing <strong>${describeScope(request.viewScope)}</strong></span>
<label>user <input name="userId" value="${chosen.userId ?? ''}" size="10" autocomplete="off"></label>
<label>agent <input name="agentId" value="${chosen.agentId ?? ''}" size="10" autocomplete="off"></label>
<label>namespace <input name="namespace" value="${chosen.namespace ?? ''}" size="10" autocomplete="off"></label>
<button type="submit">Switch scope</button>${request.viewScope ? html` <a href="${current}">Clear</a>` : ''}</form>`;
}

const LOGO = html`<svg class="logo" viewBox="0 0 32 32" width="26" height="26" aria-hidden="true"><rect x="2" y="2" width="28" height="28" rx="8" class="logo-bg"/><path d="M9 22V11l7 7 7-7v11" fill="none" class="logo-fg" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** A whole page. */
export function layout(
  request: UiRequest,
  page: { title: string; current: string; body: SafeHtml; clientScope: Scope | undefined },
): SafeHtml {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${page.title} · memoir</title><link rel="stylesheet" href="/assets/ui.css"><script src="/assets/ui.js" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="top-inner"><a class="brand" href="${link(request, '/memories')}">${LOGO}<span>memoir</span></a><nav aria-label="Pages"><ul>${NAV.map(
    (item) =>
      html`<li><a href="${link(request, item.path)}" accesskey="${item.key}"${item.path === page.current ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  )}</ul></nav>${request.readOnly ? html`<span class="badge">read-only</span>` : ''}</div></header>
${scopeBar(request, page.current, page.clientScope)}
<main id="main" tabindex="-1"><h1>${page.title}</h1>
${page.body}</main>
<footer><span>Keys: <kbd>/</kbd> search · <kbd>j</kbd> <kbd>k</kbd> next / previous row · <kbd>Enter</kbd> open · <kbd>Alt</kbd>+letter a page</span><span>served on this machine only</span></footer>
</body></html>`;
}

/** Previous / next links around page `page` of a list; `more` says whether a next page exists. */
export function pager(
  request: UiRequest,
  path: string,
  page: number,
  more: boolean,
  params: Record<string, string | undefined> = {},
): SafeHtml {
  if (page === 1 && !more) return html``;
  return html`<nav class="pager" aria-label="Pages of results">${
    page > 1 ? html`<a rel="prev" href="${link(request, path, { ...params, page: page - 1 })}">← Previous</a>` : ''
  }<span>page ${page}</span>${more ? html`<a rel="next" href="${link(request, path, { ...params, page: page + 1 })}">Next →</a>` : ''}</nav>`;
}
