/**
 * GET /users: how many memories each user has (and which agents and namespaces hold them), from
 * a pass over what the view's client can see — so a scoped view counts its own user only.
 */
import type { UiRequest } from './ui-context.js';
import { link } from './ui-context.js';
import { html, type SafeHtml, shortTime } from './ui-html.js';
import { emptyState } from './ui-layout.js';
import { scanMemories } from './ui-scan.js';

/** Agents or namespaces named per user at most; the rest are counted. */
const NAMES_SHOWN = 4;

interface UserTally {
  /** The user id; undefined for memories that name no user. */
  userId: string | undefined;
  count: number;
  current: number;
  agents: Set<string>;
  namespaces: Set<string>;
  latest: string;
}

function names(set: ReadonlySet<string>): string {
  const all = [...set].sort();
  if (all.length === 0) return '—';
  const more = all.length - NAMES_SHOWN;
  return `${all.slice(0, NAMES_SHOWN).join(', ')}${more > 0 ? ` +${more}` : ''}`;
}

function shareBar(count: number, total: number): SafeHtml {
  const width = total === 0 ? 0 : Math.max(1, Math.round((count / total) * 120));
  return html`<svg class="share" viewBox="0 0 120 8" width="120" height="8" aria-hidden="true"><rect class="track" width="120" height="8" rx="4"/><rect class="bar" width="${width}" height="8" rx="4"/></svg>`;
}

/** GET /users */
export async function usersPage(request: UiRequest): Promise<{ title: string; body: SafeHtml }> {
  const rows = await scanMemories(request, {});
  if (rows === undefined) {
    return {
      title: 'Users',
      body: html`<p class="notice warn" role="status">Counting the memories per user… <a href="${link(request, '/users')}">Reload</a> in a few seconds.</p>`,
    };
  }
  const tallies = new Map<string, UserTally>();
  for (const row of rows) {
    const key = row.scope.userId ?? '';
    let tally = tallies.get(key);
    if (!tally) {
      tally = { userId: row.scope.userId, count: 0, current: 0, agents: new Set(), namespaces: new Set(), latest: '' };
      tallies.set(key, tally);
    }
    tally.count++;
    if (row.current) tally.current++;
    if (row.scope.agentId !== undefined) tally.agents.add(row.scope.agentId);
    if (row.scope.namespace !== undefined) tally.namespaces.add(row.scope.namespace);
    if (row.occurredAt > tally.latest) tally.latest = row.occurredAt;
  }
  // Most memories first; users of equal count by name; memories of no user last.
  const users = [...tallies.values()].sort(
    (a, b) =>
      Number(a.userId === undefined) - Number(b.userId === undefined) ||
      b.count - a.count ||
      (a.userId ?? '').localeCompare(b.userId ?? ''),
  );
  const total = rows.length;
  const body =
    users.length === 0
      ? emptyState(
          'No memories yet, so no users.',
          'Each user appears here with a count once their agent retains something.',
        )
      : html`<p class="summary"><strong>${users.filter((user) => user.userId !== undefined).length}</strong> user(s), <strong>${total}</strong> memories${
          request.admin && !request.viewScope ? ' in the whole store' : ' in this view'
        }.</p>
<div class="table-wrap"><table class="rows users"><caption>Memories per user, most first</caption><thead><tr><th scope="col">user</th><th scope="col" class="num">memories</th><th scope="col">share</th><th scope="col" class="num">current</th><th scope="col">agents</th><th scope="col">namespaces</th><th scope="col">latest</th></tr></thead><tbody>${users.map(
          (user) =>
            html`<tr data-row data-user="${user.userId ?? ''}"><th scope="row">${
              user.userId === undefined
                ? html`<span class="muted">no user</span>`
                : request.admin
                  ? html`<a href="${link({ viewScope: { ...request.viewScope, userId: user.userId } }, '/memories')}">${user.userId}</a>`
                  : html`<a href="${link(request, '/memories')}">${user.userId}</a>`
            }</th><td class="num" data-count="${user.count}">${user.count}</td><td>${shareBar(user.count, total)}</td><td class="num">${user.current}</td><td>${names(user.agents)}</td><td>${names(user.namespaces)}</td><td class="when">${shortTime(user.latest)}</td></tr>`,
        )}</tbody></table></div>
<p class="hint">Counted by reading the memories this view can see; the figures are at most a few seconds old.</p>`;
  return { title: 'Users', body };
}
