/**
 * The core block (the small set of durable facts kept in the agent's context every turn): read
 * it, edit it as text, and see the change on a confirmation page before it is written through
 * the client's `core` — so its token limit, its scope and its lock apply. The confirmation
 * carries a digest of the block it was asked about; a block changed meanwhile is asked about again.
 */
import { createHash } from 'node:crypto';
import { type CoreBlockState, ValidationError } from '../../index.js';
import { formFields, link, scopeOption, type UiRequest } from './ui-context.js';
import { html, type SafeHtml } from './ui-html.js';
import { emptyState, notice } from './ui-layout.js';
import type { PageResult } from './ui-page-memory.js';

/** The largest text the page sends to the block (the block's own limit is in tokens, and far lower). */
const MAX_TEXT = 200_000;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
const normalized = (text: string) => text.replace(/\r\n?/g, '\n');

function meter(state: CoreBlockState): SafeHtml {
  const share = state.limit === 0 ? 0 : Math.min(1, state.tokens / state.limit);
  return html`<p class="summary"><meter min="0" max="${state.limit}" value="${state.tokens}" high="${Math.round(state.limit * 0.9)}" aria-label="tokens used">${state.tokens}</meter> <strong data-tokens="${state.tokens}">${state.tokens}</strong> of ${state.limit} tokens (${Math.round(share * 100)} %)</p>`;
}

function whose(request: UiRequest): string {
  if (!request.admin) return 'this view’s scope';
  const scope = request.viewScope;
  if (!scope) return 'no user in particular (the unscoped block); choose a user above for theirs';
  return Object.entries(scope)
    .map(([key, value]) => `${key.replace(/Id$/, '')} ${value}`)
    .join(', ');
}

function editor(request: UiRequest, text: string, error?: string): SafeHtml {
  if (request.readOnly) return html`<p class="muted">Read-only view: the block cannot be changed here.</p>`;
  return html`<form method="post" action="/core/edit" class="action wide"><h2>Edit</h2>${formFields(request)}
<label for="core-text">The block, one fact or preference per line</label>
<textarea id="core-text" name="text" rows="${Math.min(24, Math.max(6, text.split('\n').length + 2))}" spellcheck="true"${
    error ? html` aria-invalid="true" aria-describedby="core-error"` : ''
  }>${text}</textarea>${error ? html`<p class="error" id="core-error" role="alert">${error}</p>` : ''}
<div><button type="submit" class="primary">Review the change…</button></div></form>`;
}

/** GET /core */
export async function corePage(request: UiRequest): Promise<PageResult> {
  const state = await request.client.core.get(scopeOption(request));
  return {
    title: 'Core block',
    body: html`${notice(request)}<p class="lead">Durable facts and preferences the agent keeps in its context every turn. Block of <strong>${whose(request)}</strong>.</p>
${meter(state)}
${
  state.text.trim() === ''
    ? emptyState(
        'The core block is empty.',
        html`Add what the agent should always know — “prefers concise replies”, “on-call this week” — below, or with <code>memoir core append</code>.`,
      )
    : html`<pre class="text core-text" data-core>${state.text}</pre>`
}
${editor(request, state.text)}`,
  };
}

/** A line-by-line comparison: lines only in the old block, only in the new, and kept. */
function lineDiff(before: string, after: string): SafeHtml {
  const a = before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  // Longest common subsequence of lines; the block is small (its limit is a few thousand tokens).
  const table: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const lines: SafeHtml[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(html`<li class="same"><span class="sign" aria-hidden="true"> </span>${a[i]!}</li>`);
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || table[i]![j + 1]! >= table[i + 1]![j]!)) {
      lines.push(html`<li class="added"><span class="sign">+</span><span class="sr">added: </span>${b[j]!}</li>`);
      j++;
    } else {
      lines.push(html`<li class="removed"><span class="sign">−</span><span class="sr">removed: </span>${a[i]!}</li>`);
      i++;
    }
  }
  return html`<ol class="diff" aria-label="Changes, line by line">${lines}</ol>`;
}

function confirmEdit(request: UiRequest, before: CoreBlockState, text: string, changed: boolean): PageResult {
  return {
    title: 'Confirm: edit the core block',
    body: html`${
      changed
        ? html`<p class="notice warn" role="status">The block changed since you opened it: here is your text against the block as it is now.</p>`
        : ''
    }<div role="alertdialog" aria-labelledby="confirm-question" class="confirm save">
<h2 id="confirm-question">Save this core block?</h2><p>Block of <strong>${whose(request)}</strong>. The agent sees it from its next turn on.</p>
${lineDiff(before.text, text)}
<form method="post" action="/core/edit">${formFields(request)}<input type="hidden" name="text" value="${text}"><input type="hidden" name="base" value="${digest(before.text)}"><input type="hidden" name="confirm" value="yes"><button type="submit" class="primary" autofocus>Yes, save</button>
<a href="${link(request, '/core')}">Cancel</a></form></div>`,
  };
}

/** Write `text` as the whole block through the client's edits (it has no "set"). */
async function save(request: UiRequest, current: string, text: string): Promise<void> {
  const options = scopeOption(request);
  if (current.trim() === '') {
    if (text.trim() !== '') await request.client.core.append(text, options);
    return;
  }
  // The whole block, trimmed, occurs in it exactly once: replacing it replaces the block.
  await request.client.core.replace({ find: current, with: text.trim() === '' ? '' : text }, options);
}

/** POST /core/edit — without `confirm=yes` (and the digest of the block asked about) it only asks. */
export async function coreEdit(request: UiRequest): Promise<PageResult> {
  const text = normalized(request.input.get('text') ?? '');
  if (text.length > MAX_TEXT) {
    throw new ValidationError([{ field: 'text', message: `expected at most ${MAX_TEXT} characters` }], {
      component: 'ui',
    });
  }
  const before = await request.client.core.get(scopeOption(request));
  if (text.trim() === before.text.trim()) return { redirect: link(request, '/core', { done: 'Nothing changed.' }) };
  const base = request.input.get('base');
  if (request.input.get('confirm') !== 'yes' || base !== digest(before.text)) {
    return confirmEdit(request, before, text, base !== null && base !== digest(before.text));
  }
  try {
    await save(request, before.text, text);
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    // Over the limit, or a scope this view may not write: said on the page, the text kept for another try.
    const message = `${error.message.replace(/^\[memoir\] /, '')}${error.suggestion ? ` ${error.suggestion}` : ''}`;
    return {
      title: 'Core block',
      body: html`${meter(before)}${editor(request, text, message)}`,
    };
  }
  return { redirect: link(request, '/core', { done: 'Saved: the agent sees the new block from its next turn.' }) };
}
