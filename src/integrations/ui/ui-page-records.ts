/** Sessions, procedures (rendered Markdown, use counts, stale flags), recordings and entities. */
import { ConfigError, citationOf, type Entity, type Procedure } from '../../index.js';
import { inView, link, pageNumber, scopeOption, type UiRequest } from './ui-context.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';
import { emptyState, pager, scopeChips } from './ui-layout.js';
import { renderMarkdown } from './ui-markdown.js';
import { PAGE_SIZE } from './ui-page-memories.js';

type Page = { title: string; body: SafeHtml };

const SESSIONS_PER_PAGE = 25;

/** GET /sessions */
export async function sessionsPage(request: UiRequest): Promise<Page> {
  const page = pageNumber(request.input);
  // Newest first: one more than this page needs tells whether a next page exists.
  const sessions = (
    await request.client.listSessions({ limit: Math.min(10_000, page * SESSIONS_PER_PAGE + 1) })
  ).filter((session) => inView(request, session.scope));
  const shown = sessions.slice((page - 1) * SESSIONS_PER_PAGE, page * SESSIONS_PER_PAGE);
  return {
    title: 'Sessions',
    body: html`${pager(request, '/sessions', page, sessions.length > page * SESSIONS_PER_PAGE)}${
      shown.length === 0
        ? emptyState('No sessions yet.', 'A session groups what one conversation retained; they appear as agents talk.')
        : html`<div class="table-wrap"><table class="rows"><caption>Sessions, newest first</caption><thead><tr><th scope="col">session</th><th scope="col">scope</th><th scope="col">started</th><th scope="col">ended</th><th scope="col">memories</th><th scope="col">top categories</th><th scope="col">summary</th></tr></thead><tbody>${shown.map(
            (session) =>
              html`<tr data-row><td><a href="${link(request, '/memories', { session: session.id })}">${session.id}</a></td><td class="scope">${scopeChips(session.scope)}</td><td class="when">${shortTime(session.startedAt)}</td><td class="when">${shortTime(session.endedAt)}</td><td class="num">${session.memoryCount}</td><td>${session.topCategories.map((tally) => `${tally.name} (${tally.count})`).join(', ')}</td><td>${session.summary ?? ''}</td></tr>`,
          )}</tbody></table></div>`
    }`,
  };
}

/** A procedure as Markdown, the way its file reads. */
export function procedureMarkdown(procedure: Procedure): string {
  const section = (title: string, items: readonly string[], numbered = false) =>
    items.length === 0
      ? ''
      : `## ${title}\n\n${items.map((item, index) => `${numbered ? `${index + 1}.` : '-'} ${item}`).join('\n')}\n\n`;
  return [
    section('When to use', procedure.triggerExamples),
    section('Steps', procedure.steps, true),
    section('What works', procedure.whatWorks),
    section("What doesn't work", procedure.whatDoesNotWork),
    procedure.outputFormat ? `## Output format\n\n${procedure.outputFormat}\n` : '',
  ].join('');
}

// A client made without a home has no procedure files: its lists are empty rather than an error page.
async function orNone<T>(work: Promise<T[]>): Promise<T[]> {
  try {
    return await work;
  } catch (error) {
    if (ConfigError.isInstance(error)) return [];
    throw error;
  }
}

async function visibleProcedures(request: UiRequest): Promise<Procedure[]> {
  return (await orNone(request.client.procedures.list())).filter((procedure) => inView(request, procedure.scope));
}

function procedureRows(request: UiRequest, procedures: readonly Procedure[], stale: ReadonlySet<string>): SafeHtml {
  if (procedures.length === 0)
    return emptyState(
      'No procedures yet.',
      'How-tos the agent learns from successful runs, or from screen recordings, appear here.',
    );
  return html`<div class="table-wrap"><table class="rows"><caption>Procedures</caption><thead><tr><th scope="col">procedure</th><th scope="col">source</th><th scope="col">used ✓ / ✗</th><th scope="col">last used</th><th scope="col">state</th></tr></thead><tbody>${procedures.map(
    (procedure) =>
      html`<tr data-row><td><a href="${link(request, `/procedure/${encodeURIComponent(procedure.id)}`)}">${procedure.title}</a></td><td>${procedure.source}</td><td class="num">${procedure.successCount} / ${procedure.failureCount}</td><td>${shortTime(procedure.lastUsedAt)}</td><td>${stale.has(procedure.id) ? html`<span class="badge warn">stale</span>` : 'in use'}</td></tr>`,
  )}</tbody></table></div>`;
}

/** GET /procedures */
export async function proceduresPage(request: UiRequest): Promise<Page> {
  const page = pageNumber(request.input);
  const [all, stale] = await Promise.all([visibleProcedures(request), orNone(request.client.procedures.stale())]);
  const shown = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return {
    title: 'Procedures',
    body: html`${pager(request, '/procedures', page, all.length > page * PAGE_SIZE)}${procedureRows(request, shown, new Set(stale.map((each) => each.id)))}`,
  };
}

function videoSpans(procedure: Procedure): SafeHtml {
  if (procedure.videoEvidence.length === 0) return html``;
  const time = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms / 1000) % 60)).padStart(2, '0')}`;
  return html`<h2>From recordings</h2><ul>${procedure.videoEvidence.map(
    (span) => html`<li>video <code>${span.videoId}</code>, ${time(span.startMs)}–${time(span.endMs)}</li>`,
  )}</ul>`;
}

/** GET /procedure/:id */
export async function procedurePage(request: UiRequest): Promise<Page> {
  const procedure = await request.client.procedures.get(request.params[0]!);
  if (!procedure || !inView(request, procedure.scope))
    return { title: 'Procedure not found', body: html`<p>No such procedure in this scope.</p>` };
  const stale = (await orNone(request.client.procedures.stale())).some((each) => each.id === procedure.id);
  return {
    title: procedure.title,
    body: html`<p class="meta-line">${procedure.source} · followed ${procedure.successCount} time(s) successfully, ${procedure.failureCount} failed · last used ${shortTime(procedure.lastUsedAt)}${
      stale ? html` · <span class="badge warn">stale</span>` : ''
    }</p><article class="markdown">${renderMarkdown(procedureMarkdown(procedure))}</article>${videoSpans(procedure)}`,
  };
}

/** GET /recordings: the procedures learned from screen recordings, with the spans that show them. */
export async function recordingsPage(request: UiRequest): Promise<Page> {
  const recorded = (await visibleProcedures(request)).filter(
    (procedure) => procedure.source === 'recording' || procedure.videoEvidence.length > 0,
  );
  return {
    title: 'Recordings',
    body:
      recorded.length === 0
        ? emptyState(
            'No procedure came from a recording yet.',
            html`Record with <code>memoir record</code>, then <code>memoir procedures from-recording</code>.`,
          )
        : html`<ul class="cards">${recorded.map(
            (procedure) =>
              html`<li data-row><a href="${link(request, `/procedure/${encodeURIComponent(procedure.id)}`)}">${procedure.title}</a> — ${procedure.steps.length} step(s)${videoSpans(procedure)}</li>`,
          )}</ul>`,
  };
}

function entityRows(request: UiRequest, entities: readonly Entity[]): SafeHtml {
  if (entities.length === 0)
    return emptyState('No entities yet.', 'People, projects and things the memories mention are listed here.');
  return html`<div class="table-wrap"><table class="rows"><caption>Entities</caption><thead><tr><th scope="col">entity</th><th scope="col">memories</th><th scope="col">page</th><th scope="col">updated</th></tr></thead><tbody>${entities.map(
    (entity) =>
      html`<tr data-row><td><a href="${link(request, `/entity/${encodeURIComponent(entity.name)}`)}">${entity.name}</a></td><td class="num">${entity.memoryCount}</td><td>${entity.summary ? 'yes' : '—'}</td><td>${shortTime(entity.updatedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

/** GET /entities */
export async function entitiesPage(request: UiRequest): Promise<Page> {
  const page = pageNumber(request.input);
  const entities = await request.client.listEntities({
    ...scopeOption(request),
    limit: PAGE_SIZE + 1,
    offset: (page - 1) * PAGE_SIZE,
  });
  return {
    title: 'Entities',
    body: html`${pager(request, '/entities', page, entities.length > PAGE_SIZE)}${entityRows(request, entities.slice(0, PAGE_SIZE))}`,
  };
}

/** GET /entity/:name — the entity's page (when reflect wrote one) and the facts that mention it, with citations. */
export async function entityPage(request: UiRequest): Promise<Page> {
  const name = request.params[0]!;
  const page = pageNumber(request.input);
  const options = { ...scopeOption(request), entities: [name], includeInvalid: false };
  const found = await request.client.list({ ...options, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  const facts = found.slice(0, PAGE_SIZE);
  return {
    title: name,
    body: html`<h2>Current facts that mention it, with their citations</h2>${
      facts.length === 0
        ? emptyState('No current fact mentions it.')
        : html`<ul class="facts">${facts.map(
            (fact) =>
              html`<li data-row><a href="${link(request, `/memory/${encodeURIComponent(fact.id)}`)}">${fact.abstract || fact.content}</a> <cite>${citationOf(fact)}</cite></li>`,
          )}</ul>`
    }
${pager(request, `/entity/${encodeURIComponent(name)}`, page, found.length > PAGE_SIZE)}`,
  };
}
