/**
 * One memory: its three tiers, metadata, validity and chain of versions, and the actions —
 * edit, correct, invalidate, forget — each asked for on its own confirmation page before it
 * runs through the client (so the scope, validation and events apply). An edit can be undone:
 * the view keeps the fields it replaced and `update` writes them back.
 */
import { randomBytes } from 'node:crypto';
import { citationOf, type Memory, type MemoryPatch, ValidationError } from '../../index.js';
import { formFields, link, type UiRequest } from './ui-context.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';
import { scopeChips } from './ui-layout.js';
import { validityOf } from './ui-page-memories.js';

/** What a handler answers: a page, or a redirect after a change. */
export type PageResult = { title: string; body: SafeHtml } | { redirect: string };

/** The actions on a memory. */
export const ACTIONS = ['edit', 'correct', 'invalidate', 'forget', 'undo'] as const;
/** One of {@link ACTIONS}. */
export type MemoryAction = (typeof ACTIONS)[number];

const EDIT_FIELDS = ['content', 'abstract', 'overview', 'category', 'importance'] as const;
/** Undo entries kept (oldest dropped first). */
const UNDO_CAPACITY = 200;

/** Edits the view can take back, by undo id: the memory and the fields the edit replaced. */
export type UndoLog = Map<string, { id: string; patch: MemoryPatch }>;

const idPath = (id: string) => `/memory/${encodeURIComponent(id)}`;

function tier(label: string, name: string, text: string | null): SafeHtml {
  return html`<section class="tier" aria-label="${label}"><h3>${label}</h3>${
    text ? html`<pre class="text" data-tier="${name}">${text}</pre>` : html`<p class="muted">none</p>`
  }</section>`;
}

function actionForms(request: UiRequest, memory: Memory): SafeHtml {
  if (request.readOnly) return html`<p class="muted">Read-only view: no changes can be made here.</p>`;
  const path = idPath(memory.id);
  return html`<section aria-labelledby="actions"><h2 id="actions">Actions</h2>
<form method="post" action="${path}/edit" class="action"><h3>Edit</h3>${formFields(request)}
<label for="edit-content">Content (L2)</label><textarea id="edit-content" name="content" rows="4">${memory.content}</textarea>
<label for="edit-abstract">Abstract (L0)</label><input id="edit-abstract" name="abstract" value="${memory.abstract}">
<label for="edit-overview">Overview (L1)</label><textarea id="edit-overview" name="overview" rows="2">${memory.overview ?? ''}</textarea>
<label for="edit-category">Category</label><input id="edit-category" name="category" value="${memory.category}">
<label for="edit-importance">Importance (0..1)</label><input id="edit-importance" name="importance" value="${memory.importance}" inputmode="decimal">
<button type="submit">Edit…</button></form>
<form method="post" action="${path}/correct" class="action"><h3>Correct</h3>${formFields(request)}
<p class="hint">Keeps this version (superseded) and records the corrected text as the new one.</p>
<label for="correct-content">Corrected text</label><textarea id="correct-content" name="content" rows="3" required>${memory.content}</textarea>
<button type="submit">Correct…</button></form>
${
  memory.validTo
    ? ''
    : html`<form method="post" action="${path}/invalidate" class="action"><h3>Invalidate</h3>${formFields(request)}
<p class="hint">It stops being recalled but stays listed, with the reason.</p>
<label for="invalidate-reason">Reason</label><input id="invalidate-reason" name="reason" required>
<button type="submit">Invalidate…</button></form>`
}
<form method="post" action="${path}/forget" class="action"><h3>Forget</h3>${formFields(request)}
<p class="hint">Deletes the memory for good; there is no undo.</p>
<button type="submit" class="danger">Forget…</button></form></section>`;
}

async function versionsOf(request: UiRequest, memory: Memory): Promise<SafeHtml> {
  const history = await request.client.history(memory.id);
  return html`<div class="table-wrap"><table class="rows"><caption>Versions of this fact, oldest first</caption><thead><tr><th scope="col">from</th><th scope="col">until</th><th scope="col">text</th><th scope="col">reason</th></tr></thead><tbody>${history.versions.map(
    (version) =>
      html`<tr data-row${version.memory.id === memory.id ? html` aria-current="true" class="current-row"` : ''}><td>${shortTime(version.from)}</td><td>${version.until ? shortTime(version.until) : 'now'}</td><td><a href="${link(request, idPath(version.memory.id))}">${version.memory.abstract || version.memory.content.slice(0, 200)}</a></td><td>${version.reason ?? ''}</td></tr>`,
  )}</tbody></table></div>`;
}

/** GET /memory/:id */
export async function memoryPage(request: UiRequest): Promise<PageResult> {
  const memory = await request.client.get(request.params[0]!);
  const done = request.input.get('done');
  const undo = request.input.get('undo');
  return {
    title: 'Memory',
    body: html`${
      done
        ? html`<p class="notice" role="status">${done}${
            undo && !request.readOnly
              ? html` <form method="post" action="${idPath(memory.id)}/undo" class="inline">${formFields(request)}<input type="hidden" name="undo" value="${undo}"><input type="hidden" name="confirm" value="yes"><button type="submit">Undo</button></form>`
              : ''
          }</p>`
        : ''
    }
<p class="lead" data-memory-id="${memory.id}">${memory.abstract || memory.content}</p>
<div class="tiers">${tier('L0 abstract', 'abstract', memory.abstract)}${tier('L1 overview', 'overview', memory.overview)}${tier('L2 content', 'content', memory.content)}</div>
<h2>Details</h2>
<dl class="meta">
<dt>id</dt><dd><code>${memory.id}</code></dd>
<dt>kind / category</dt><dd>${memory.kind} / ${memory.category}</dd>
<dt>scope</dt><dd>${scopeChips(memory.scope)}</dd>
<dt>citation</dt><dd>${citationOf(memory)}</dd>
<dt>session</dt><dd>${memory.sessionId ? html`<a href="${link(request, '/memories', { session: memory.sessionId })}">${memory.sessionId}</a>` : '—'}</dd>
<dt>entities</dt><dd>${memory.entities.length === 0 ? '—' : memory.entities.map((name, index) => html`${index > 0 ? ', ' : ''}<a href="${link(request, `/entity/${encodeURIComponent(name)}`)}">${name}</a>`)}</dd>
<dt>occurred</dt><dd>${shortTime(memory.occurredAt)}</dd>
<dt>stored / updated</dt><dd>${shortTime(memory.createdAt)} / ${shortTime(memory.updatedAt)}</dd>
<dt>importance</dt><dd>${memory.importance}</dd>
<dt>recalled</dt><dd>${memory.accessCount} time(s)</dd>
<dt>validity</dt><dd>${validityOf(memory)}${memory.invalidationReason ? html` — ${memory.invalidationReason}` : ''}${
      memory.supersededBy
        ? html` (by <a href="${link(request, idPath(memory.supersededBy))}">${memory.supersededBy}</a>)`
        : ''
    }</dd>
</dl>
<details><summary>Metadata</summary><pre class="text">${JSON.stringify(memory.metadata, null, 2)}</pre></details>
<h2>Version chain</h2>${await versionsOf(request, memory)}
${actionForms(request, memory)}`,
  };
}

function editPatch(memory: Memory, input: URLSearchParams): { patch: MemoryPatch; previous: MemoryPatch } {
  const patch: Record<string, unknown> = {};
  const previous: Record<string, unknown> = {};
  for (const field of EDIT_FIELDS) {
    const given = input.get(field);
    if (given === null) continue;
    if (field === 'importance') {
      const value = Number(given);
      if (given.trim() === '' || !Number.isFinite(value)) {
        throw new ValidationError([{ field: 'importance', message: 'expected a number from 0 to 1' }], {
          component: 'ui',
        });
      }
      if (value !== memory.importance) {
        patch.importance = value;
        previous.importance = memory.importance;
      }
    } else if (field === 'overview') {
      const value = given.trim() === '' ? null : given;
      if (value !== memory.overview) {
        patch.overview = value;
        previous.overview = memory.overview;
      }
    } else if (given !== memory[field]) {
      patch[field] = given;
      previous[field] = memory[field];
    }
  }
  return { patch: patch as MemoryPatch, previous: previous as MemoryPatch };
}

function confirmPage(
  request: UiRequest,
  memory: Memory,
  action: MemoryAction,
  question: string,
  detail: SafeHtml,
): PageResult {
  const kept = [...request.input.entries()].filter(
    ([name]) => !['csrf', 'confirm', 'userId', 'agentId', 'namespace'].includes(name),
  );
  return {
    title: `Confirm: ${action}`,
    body: html`<p class="lead">${memory.abstract || memory.content}</p>
<div role="alertdialog" aria-labelledby="confirm-question" class="confirm">
<h2 id="confirm-question">${question}</h2>${detail}
<form method="post" action="${idPath(memory.id)}/${action}">${formFields(request)}${kept.map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
    )}<input type="hidden" name="confirm" value="yes"><button type="submit" class="${action === 'forget' ? 'danger' : ''}" autofocus>Yes, ${action}</button>
<a href="${link(request, idPath(memory.id))}">Cancel</a></form></div>`,
  };
}

function changes(patch: MemoryPatch, previous: MemoryPatch): SafeHtml {
  const rows = Object.keys(patch).map(
    (field) =>
      html`<tr><th scope="row">${field}</th><td><pre class="text">${String((previous as Record<string, unknown>)[field] ?? '')}</pre></td><td><pre class="text">${String((patch as Record<string, unknown>)[field] ?? '')}</pre></td></tr>`,
  );
  return html`<div class="table-wrap"><table class="rows"><thead><tr><th scope="col">field</th><th scope="col">before</th><th scope="col">after</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** POST /memory/:id/:action — without `confirm=yes` it only asks. */
export async function memoryAction(request: UiRequest, undoLog: UndoLog): Promise<PageResult> {
  const id = request.params[0]!;
  const action = request.params[1] as MemoryAction;
  const confirmed = request.input.get('confirm') === 'yes';
  const memory = await request.client.get(id);
  const back = (done: string, extra: Record<string, string> = {}, target = id) =>
    ({ redirect: link(request, idPath(target), { done, ...extra }) }) as const;

  switch (action) {
    case 'edit': {
      const { patch, previous } = editPatch(memory, request.input);
      if (Object.keys(patch).length === 0) return back('Nothing changed.');
      if (!confirmed) return confirmPage(request, memory, action, 'Save these changes?', changes(patch, previous));
      await request.client.update(id, patch);
      const undoId = randomBytes(9).toString('base64url');
      undoLog.set(undoId, { id, patch: previous });
      if (undoLog.size > UNDO_CAPACITY) undoLog.delete(undoLog.keys().next().value!);
      return back('Saved.', { undo: undoId });
    }
    case 'undo': {
      const entry = undoLog.get(request.input.get('undo') ?? '');
      if (!entry || entry.id !== id) return back('That edit can no longer be undone.');
      await request.client.update(id, entry.patch);
      undoLog.delete(request.input.get('undo')!);
      return back('Edit undone.');
    }
    case 'correct': {
      const content = request.input.get('content') ?? '';
      if (!confirmed) {
        return confirmPage(
          request,
          memory,
          action,
          'Record this correction?',
          html`<p>The current text is kept as a superseded version; the new one becomes current:</p><pre class="text">${content}</pre>`,
        );
      }
      // The new version belongs where the old one does: an admin view's client has no scope of its own to give it.
      const result = await request.client.correct(id, { content, scope: memory.scope });
      return back('Corrected: this is the new version.', {}, result.id);
    }
    case 'invalidate': {
      const reason = request.input.get('reason') ?? '';
      if (!confirmed) {
        return confirmPage(
          request,
          memory,
          action,
          'Invalidate this memory?',
          html`<p>It stops being recalled, and stays listed with the reason:</p><pre class="text">${reason}</pre>`,
        );
      }
      await request.client.invalidate(id, reason);
      return back('Invalidated.');
    }
    case 'forget': {
      if (!confirmed) {
        return confirmPage(
          request,
          memory,
          action,
          'Forget this memory for good?',
          html`<p>It is deleted from the store. This cannot be undone.</p>`,
        );
      }
      await request.client.forget(id);
      return { redirect: link(request, '/memories', { done: 'forgotten' }) };
    }
  }
}
