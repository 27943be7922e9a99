import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory, type MemoryClient, NotFoundError } from '../../src/index.js';
import { serveUi, type UiEndpoint } from '../../src/integrations/ui/index.js';
import { quiet, tempDir } from '../helpers/stores.js';
import { viewFetch } from '../helpers/view-fetch.js';

// The admin side of the web view over a real SQLite file and real HTTP: whose memory each row
// is, counts per user, sorting done by the server, bulk forget with the single forget's
// confirmation and CSRF value, and the core block's page — and a scoped view (alice) that
// never shows, counts or changes bob's.

const TOKEN = 'admin-pages-token-0123456789';
const BOB_CORE = 'Bob core: the vault code is 4711.';

let admin: MemoryClient;
let alice: MemoryClient;
let bob: MemoryClient;
let adminUi: UiEndpoint;
let aliceUi: UiEndpoint;

interface Session {
  ui: UiEndpoint;
  cookie: string;
  csrf: string;
}

async function open(ui: UiEndpoint): Promise<Session> {
  const first = await viewFetch(ui.url);
  const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await viewFetch(`${ui.origin}/memories`, { headers: { cookie } })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  expect(csrf, 'the memory list carries the bulk-forget form with its CSRF value').toBeTruthy();
  return { ui, cookie, csrf: csrf! };
}

async function get(session: Session, target: string) {
  const response = await viewFetch(`${session.ui.origin}${target}`, { headers: { cookie: session.cookie } });
  return { status: response.status, body: await response.text() };
}

async function post(session: Session, target: string, form: Array<[string, string]>, csrf = true) {
  const response = await viewFetch(`${session.ui.origin}${target}`, {
    method: 'POST',
    headers: {
      cookie: session.cookie,
      origin: session.ui.origin,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams([...form, ...(csrf ? [['csrf', session.csrf] as [string, string]] : [])]).toString(),
  });
  return { status: response.status, body: await response.text(), location: response.headers.get('location') };
}

/** The memory texts of a list page's rows, in order. */
function rowTexts(body: string): string[] {
  return [...body.matchAll(/<tr data-row[^>]*>[\s\S]*?<a [^>]*>([^<]*)<\/a>/g)].map((match) => match[1]!);
}

/** The rows of a list page, each as its HTML. */
function rows(body: string): string[] {
  return [...body.matchAll(/<tr data-row[\s\S]*?<\/tr>/g)].map((match) => match[0]);
}

async function exists(id: string): Promise<boolean> {
  return admin.get(id).then(
    () => true,
    (error: unknown) => {
      if (NotFoundError.isInstance(error)) return false;
      throw error;
    },
  );
}

beforeAll(async () => {
  const home = tempDir('memoir-ui-admin-');
  const store = createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet });
  admin = createMemory({ store, logger: quiet });
  alice = createMemory({ store, logger: quiet, scope: { userId: 'alice' } });
  bob = createMemory({ store, logger: quiet, scope: { userId: 'bob' } });
  await alice.retain([
    { content: 'Alice lives in Lisbon.', category: 'profile', importance: 0.3, occurredAt: '2025-11-01T10:00:00Z' },
    { content: 'Alice drinks tea.', category: 'preferences', importance: 0.9, occurredAt: '2025-11-03T10:00:00Z' },
    { content: 'Alice plays chess.', category: 'activities', importance: 0.6, occurredAt: '2025-11-05T10:00:00Z' },
  ]);
  await bob.retain([
    { content: 'Bob keeps a boat in Porto.', category: 'profile', importance: 0.1, occurredAt: '2025-11-02T10:00:00Z' },
    { content: 'Bob likes jazz.', category: 'preferences', importance: 0.7, occurredAt: '2025-11-04T10:00:00Z' },
  ]);
  await alice.core.append('Alice core: prefers short answers.');
  await bob.core.append(BOB_CORE);
  adminUi = await serveUi({ client: admin, token: TOKEN });
  aliceUi = await serveUi({ client: alice, scope: { userId: 'alice' }, token: TOKEN });
}, 60_000);

afterAll(async () => {
  await aliceUi?.close();
  await adminUi?.close();
  await Promise.all([alice?.close(), bob?.close()]);
  await admin?.close();
});

describe('the web view’s admin pages', () => {
  it('each memory row says whose it is', async () => {
    const session = await open(adminUi);
    const { body } = await get(session, '/memories');
    expect(body).toMatch(/<th scope="col"[^>]*>[\s\S]{0,200}scope/);
    const all = rows(body);
    expect(all).toHaveLength(5);
    for (const row of all) {
      const owner = /Alice/.test(row) ? 'alice' : 'bob';
      expect(row, row).toMatch(new RegExp(`<td class="scope"[^>]*>[\\s\\S]*user[\\s\\S]*${owner}`));
    }
  });

  it('counts memories per user; a scoped view counts only its own', async () => {
    const session = await open(adminUi);
    const { status, body } = await get(session, '/users');
    expect(status).toBe(200);
    expect(body).toMatch(/data-user="alice"[\s\S]*?data-count="3"/);
    expect(body).toMatch(/data-user="bob"[\s\S]*?data-count="2"/);
    const scoped = await open(aliceUi);
    for (const target of ['/users', '/users?userId=bob']) {
      const page = await get(scoped, target);
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/data-user="alice"[\s\S]*?data-count="3"/);
      expect(page.body).not.toMatch(/bob/i);
    }
  });

  it('sorts by date, user, category and importance on the server', async () => {
    const session = await open(adminUi);
    expect(rowTexts((await get(session, '/memories')).body)).toEqual([
      'Alice plays chess.',
      'Bob likes jazz.',
      'Alice drinks tea.',
      'Bob keeps a boat in Porto.',
      'Alice lives in Lisbon.',
    ]);
    expect(rowTexts((await get(session, '/memories?sort=date&dir=asc')).body)[0]).toBe('Alice lives in Lisbon.');
    const byUser = rowTexts((await get(session, '/memories?sort=user')).body);
    expect(byUser.map((text) => text.split(' ')[0])).toEqual(['Alice', 'Alice', 'Alice', 'Bob', 'Bob']);
    // Within a user, newest first.
    expect(byUser.slice(0, 3)).toEqual(['Alice plays chess.', 'Alice drinks tea.', 'Alice lives in Lisbon.']);
    const byUserDesc = rowTexts((await get(session, '/memories?sort=user&dir=desc')).body);
    expect(byUserDesc.map((text) => text.split(' ')[0])).toEqual(['Bob', 'Bob', 'Alice', 'Alice', 'Alice']);
    expect(rowTexts((await get(session, '/memories?sort=category')).body)).toEqual([
      'Alice plays chess.',
      'Bob likes jazz.',
      'Alice drinks tea.',
      'Bob keeps a boat in Porto.',
      'Alice lives in Lisbon.',
    ]);
    expect(rowTexts((await get(session, '/memories?sort=importance')).body)).toEqual([
      'Alice drinks tea.',
      'Bob likes jazz.',
      'Alice plays chess.',
      'Alice lives in Lisbon.',
      'Bob keeps a boat in Porto.',
    ]);
    // A filter applies to every order; the header links keep the scope and the filters.
    const filtered = await get(session, '/memories?sort=importance&category=profile&userId=bob');
    expect(rowTexts(filtered.body)).toEqual(['Bob keeps a boat in Porto.']);
    expect(filtered.body).toMatch(/href="\/memories\?[^"]*userId=bob[^"]*category=profile[^"]*sort=user/);
    // A sort the view does not know is the caller's mistake.
    expect((await get(session, '/memories?sort=password')).status).toBe(400);
  });

  it('bulk forget asks first, needs the CSRF value, and deletes only the selected memories', async () => {
    const session = await open(adminUi);
    const [jazz] = (await bob.list({ categories: ['preferences'] })).map((memory) => memory.id);
    const [chess] = (await alice.list({ categories: ['activities'] })).map((memory) => memory.id);
    const form: Array<[string, string]> = [
      ['id', jazz!],
      ['id', chess!],
    ];
    expect((await post(session, '/memories/forget', [...form, ['confirm', 'yes']], false)).status).toBe(403);
    const asked = await post(session, '/memories/forget', form);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('role="alertdialog"');
    expect(asked.body).toContain('Forget 2 memories for good?');
    expect(asked.body).toContain('Bob likes jazz.');
    expect(await exists(jazz!)).toBe(true);
    const done = await post(session, '/memories/forget', [...form, ['confirm', 'yes']]);
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/^\/memories\?.*done=/);
    expect(await exists(jazz!)).toBe(false);
    expect(await exists(chess!)).toBe(false);
    expect(await admin.count()).toBe(3);
    // Put them back for the tests after this one.
    await bob.retain({ content: 'Bob likes jazz.', category: 'preferences', importance: 0.7 });
    await alice.retain({ content: 'Alice plays chess.', category: 'activities', importance: 0.6 });
  });

  it('bulk forget of the filtered memories forgets what the filter matches in the view’s scope, and nothing else', async () => {
    const session = await open(adminUi);
    const form: Array<[string, string]> = [
      ['all', 'filtered'],
      ['category', 'profile'],
      ['userId', 'alice'],
    ];
    const asked = await post(session, '/memories/forget', form);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('Forget 1 memory for good?');
    expect(asked.body).toContain('Alice lives in Lisbon.');
    expect(asked.body).not.toContain('Bob keeps a boat');
    const done = await post(session, '/memories/forget', [...form, ['expected', '1'], ['confirm', 'yes']]);
    expect(done.status).toBe(303);
    expect(await alice.count({ categories: ['profile'] })).toBe(0);
    expect(await bob.count({ categories: ['profile'] })).toBe(1);
  });

  it('a scoped view’s bulk forget never deletes another user’s memory', async () => {
    const session = await open(aliceUi);
    const [boat] = (await bob.list({ categories: ['profile'] })).map((memory) => memory.id);
    const asked = await post(session, '/memories/forget', [['id', boat!]]);
    expect(asked.body).not.toContain('Bob keeps a boat');
    await post(session, '/memories/forget', [
      ['id', boat!],
      ['confirm', 'yes'],
    ]);
    await post(session, '/memories/forget', [
      ['all', 'filtered'],
      ['userId', 'bob'],
      ['confirm', 'yes'],
    ]);
    expect(await exists(boat!)).toBe(true);
    expect(await bob.count()).toBe(2);
    // An admin view narrowed to alice forgets only inside alice's scope, whatever ids it is sent.
    const narrowed = await open(adminUi);
    const done = await post(narrowed, '/memories/forget', [
      ['id', boat!],
      ['userId', 'alice'],
      ['confirm', 'yes'],
    ]);
    expect(done.status).toBe(303);
    expect(decodeURIComponent(done.location!.replace(/\+/g, ' '))).toContain('nothing was forgotten');
    expect(await exists(boat!)).toBe(true);
  });

  it('the core block page reads and edits the block of the view’s scope, after a confirmation', async () => {
    const session = await open(adminUi);
    const shown = await get(session, '/core?userId=alice');
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('Alice core: prefers short answers.');
    expect(shown.body).toMatch(/data-tokens="\d+"/);
    expect(shown.body).not.toContain(BOB_CORE);
    const text = 'Alice core: prefers short answers.\nAlice core: writes in Portuguese.';
    const form: Array<[string, string]> = [
      ['text', text],
      ['userId', 'alice'],
    ];
    expect((await post(session, '/core/edit', [...form, ['confirm', 'yes']], false)).status).toBe(403);
    const asked = await post(session, '/core/edit', form);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('role="alertdialog"');
    expect((await alice.core.get()).text).not.toContain('Portuguese');
    const base = /name="base" value="([^"]+)"/.exec(asked.body)?.[1];
    expect(base).toBeTruthy();
    const done = await post(session, '/core/edit', [...form, ['base', base!], ['confirm', 'yes']]);
    expect(done.status).toBe(303);
    expect((await alice.core.get()).text.trim()).toBe(text);
    expect((await bob.core.get()).text.trim()).toBe(BOB_CORE);
    // A confirmation asked about an older block is asked again, against the block as it is now.
    const stale = await post(session, '/core/edit', [
      ['text', 'word '.repeat(3000)],
      ['userId', 'alice'],
      ['base', base!],
      ['confirm', 'yes'],
    ]);
    expect(stale.body).toContain('The block changed since you opened it');
    const fresh = /name="base" value="([^"]+)"/.exec(stale.body)?.[1];
    expect(fresh).not.toBe(base);
    // Over the limit: refused on the page, the block unchanged.
    const over = await post(session, '/core/edit', [
      ['text', 'word '.repeat(3000)],
      ['userId', 'alice'],
      ['base', fresh!],
      ['confirm', 'yes'],
    ]);
    expect(over.body).toMatch(/over its limit/);
    expect(over.body).toContain('role="alert"');
    expect((await alice.core.get()).text.trim()).toBe(text);
  });

  it('a scoped view’s core page never shows or changes another user’s block', async () => {
    const session = await open(aliceUi);
    for (const target of ['/core', '/core?userId=bob']) {
      const page = await get(session, target);
      expect(page.status).toBe(200);
      expect(page.body).not.toContain(BOB_CORE);
    }
    await post(session, '/core/edit', [
      ['text', 'Overwritten'],
      ['userId', 'bob'],
      ['confirm', 'yes'],
    ]);
    expect((await bob.core.get()).text.trim()).toBe(BOB_CORE);
  });

  it('a read-only view offers no bulk forget or core edit, and refuses them', async () => {
    const readOnly = await serveUi({ client: admin, token: TOKEN, readOnly: true });
    try {
      const first = await viewFetch(readOnly.url);
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const list = await (await viewFetch(`${readOnly.origin}/memories`, { headers: { cookie } })).text();
      expect(rows(list).length).toBeGreaterThan(0);
      expect(list).not.toContain('name="id"');
      expect(list).not.toContain('Forget selected');
      const core = await (await viewFetch(`${readOnly.origin}/core?userId=alice`, { headers: { cookie } })).text();
      expect(core).toContain('Alice core:');
      expect(core).not.toContain('<textarea');
      const before = await admin.count();
      for (const target of ['/memories/forget', '/core/edit']) {
        const response = await viewFetch(`${readOnly.origin}${target}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams([
            ['all', 'filtered'],
            ['text', 'Overwritten'],
            ['confirm', 'yes'],
          ]).toString(),
        });
        await response.text();
        expect(response.status, target).toBe(403);
      }
      expect(await admin.count()).toBe(before);
      expect((await alice.core.get()).text).not.toContain('Overwritten');
    } finally {
      await readOnly.close();
    }
  });

  it('counts and sorts past one page of the pass, with many memories of one instant across its edge', async () => {
    const home = tempDir('memoir-ui-admin-many-');
    const store = createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet });
    const many = createMemory({ store, logger: quiet });
    try {
      // 4,500 memories, 4,200 of them at one instant: the pass reads 2,000 at a time, so that
      // instant fills whole pages and crosses their edges.
      const items = Array.from({ length: 4500 }, (_, index) => ({
        content: `Fact number ${index} about the harbour.`,
        occurredAt: index % 15 === 0 ? '2025-10-02T00:00:00Z' : '2025-10-01T00:00:00Z',
        category: index % 2 === 0 ? 'even' : 'odd',
        scope: { userId: index < 4000 ? 'carol' : 'dave' },
      }));
      for (let start = 0; start < items.length; start += 1500) await many.retain(items.slice(start, start + 1500));
      expect(await many.count()).toBe(4500);
      const ui = await serveUi({ client: many, token: TOKEN });
      try {
        const session = await open(ui);
        const users = (await get(session, '/users')).body;
        expect(users).toMatch(/data-user="carol"[\s\S]*?data-count="4000"/);
        expect(users).toMatch(/data-user="dave"[\s\S]*?data-count="500"/);
        // The last page by user holds dave's 500, after carol's 4,000 (pages of 50).
        const last = (await get(session, '/memories?sort=user&page=90')).body;
        expect(rows(last)).toHaveLength(50);
        for (const row of rows(last)) expect(row).toContain('dave');
        expect(rows((await get(session, '/memories?sort=user&page=91')).body)).toHaveLength(0);
      } finally {
        await ui.close();
      }
    } finally {
      await many.close();
    }
  }, 120_000);
});
