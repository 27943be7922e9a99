import { existsSync, mkdirSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory, NotFoundError } from '../../src/index.js';
import { serveUi, type UiEndpoint } from '../../src/integrations/ui/index.js';
import { quiet, tempDir } from '../helpers/stores.js';

// `memoir ui` in a real browser: Debian's chromium driven by playwright-core (nothing is
// downloaded), over real HTTP on 127.0.0.1 and a real SQLite file. Each page is written to
// docs/gallery/ as it loads: the README's gallery.

const CHROMIUM = '/usr/bin/chromium';
const GALLERY = resolve(__dirname, '../../docs/gallery');
const missing = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const TOKEN = 'browser-test-token-0123456789';
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';

describe.skipIf(missing !== undefined)('memoir ui in chromium', () => {
  const home = tempDir('memoir-ui-');
  const store = createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet });
  const admin = createMemory({ store, home, logger: quiet });
  const alice = createMemory({ store, home, logger: quiet, scope: { userId: 'alice' } });
  const bob = createMemory({ store, home, logger: quiet, scope: { userId: 'bob' } });
  let adminUi: UiEndpoint;
  let aliceUi: UiEndpoint;
  let browser: Browser;
  let context: BrowserContext;
  const ids: Record<string, string | undefined> = {};

  beforeAll(async () => {
    const kept = await alice.retain([
      {
        content: 'Alice lives in Lisbon, near the castle.',
        entities: ['Lisbon'],
        kind: 'world',
        sessionId: 'session_alice_1',
        source: { file: 'memory/2025-11-20.md', line: 4 },
      },
      {
        content: 'Alice takes her coffee black.',
        entities: ['Coffee'],
        kind: 'world',
        category: 'preferences',
        sessionId: 'session_alice_1',
      },
      {
        content: 'Alice believes the castle tour is worth it.',
        entities: ['Lisbon'],
        kind: 'opinion',
        metadata: {
          confidence: 0.8,
          supporting: [],
          contradicting: [],
          history: [
            { at: '2025-10-01T00:00:00.000Z', to: 0.6 },
            { at: '2025-11-01T00:00:00.000Z', to: 0.7 },
          ],
        },
      },
      { content: `Note pasted from a web page: ${HOSTILE}`, kind: 'observation' },
      { content: 'Alice is allergic to peanuts.', kind: 'world', category: 'profile' },
    ]);
    [ids.lisbon, ids.coffee, ids.opinion, ids.hostile, ids.peanuts] = kept.ids;
    const bobs = await bob.retain([
      {
        content: 'Bob keeps a secret boat in Porto harbour.',
        entities: ['Porto'],
        kind: 'world',
        sessionId: 'session_bob_1',
      },
    ]);
    ids.bob = bobs.ids[0]!;
    await alice.core.append('Alice prefers short answers.\nAlice lives in Lisbon.');
    await alice.procedures.save({
      title: 'Deploy the blog',
      triggerExamples: ['deploy the blog', 'publish a post'],
      steps: ['Run `npm run build`', `Check the **preview** ${HOSTILE}`, 'Push to [main](javascript:alert(1))'],
      whatWorks: ['Deploy before noon'],
      source: 'recording',
      videoEvidence: [{ videoId: 'vid_123', startMs: 61_000, endMs: 125_000 }],
    });
    adminUi = await serveUi({ client: admin, token: TOKEN });
    aliceUi = await serveUi({ client: alice, scope: { userId: 'alice' }, token: TOKEN });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--host-resolver-rules=MAP rebind.example 127.0.0.1'],
    });
    context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    mkdirSync(GALLERY, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await adminUi?.close();
    await aliceUi?.close();
    await Promise.all([alice.close(), bob.close()]);
    await admin.close();
  });

  /** A page that fails the test if any script of the memories' text runs or a dialog opens. */
  async function open(target: BrowserContext = context): Promise<Page> {
    const page = await target.newPage();
    page.on('dialog', (dialog) => {
      throw new Error(`a dialog opened: ${dialog.message()}`);
    });
    return page;
  }

  async function expectNoScriptRan(page: Page) {
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
  }

  it('loads every page from the printed URL, escapes the memories, and writes the gallery', async () => {
    const page = await open();
    await page.goto(adminUi.url);
    // The token was traded for a cookie and dropped from the address.
    expect(page.url()).toBe(`${adminUi.origin}/memories`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Memories');
    await expect(page.getByText('Alice lives in Lisbon').count()).resolves.toBeGreaterThan(0);
    await expect(page.getByText('Bob keeps a secret boat').count()).resolves.toBeGreaterThan(0);
    const shots: Array<[string, string, string]> = [
      ['memories', '/memories', 'Memories'],
      ['search', '/search?q=where+does+Alice+live', 'Search'],
      ['memory', `/memory/${ids.lisbon}`, 'Memory'],
      ['sessions', '/sessions', 'Sessions'],
      ['procedures', '/procedures', 'Procedures'],
      ['procedure', '/procedure/deploy-the-blog', 'Deploy the blog'],
      ['entities', '/entities', 'Entities'],
      ['entity', '/entity/Lisbon', 'Lisbon'],
      ['opinions', '/opinions', 'Opinions'],
      ['opinion', `/opinion/${ids.opinion}`, 'Opinion'],
      ['recordings', '/recordings', 'Recordings'],
      ['health', '/health', 'Health'],
      ['users', '/users', 'Users'],
      ['core', '/core?userId=alice', 'Core block'],
      ['memories-by-user', '/memories?sort=user', 'Memories'],
      ['hostile-memory', `/memory/${ids.hostile}`, 'Memory'],
    ];
    // Everything the view loads comes from the view itself: it works offline.
    const foreign: string[] = [];
    page.on('request', (sent) => {
      if (!sent.url().startsWith(adminUi.origin) && !sent.url().startsWith('data:')) foreign.push(sent.url());
    });
    for (const [name, path, title] of shots) {
      const response = await page.goto(`${adminUi.origin}${path}`);
      expect(response?.status(), path).toBe(200);
      await expect(page.locator('h1').textContent(), path).resolves.toBe(title);
      await expectNoScriptRan(page);
      // Every control has a name a screen reader reads: a <label> or an aria-label.
      const unlabelled = await page.evaluate(
        `[...document.querySelectorAll('input:not([type=hidden]), select, textarea')].filter((el) => el.labels.length === 0 && !el.getAttribute('aria-label')).map((el) => el.outerHTML)`,
      );
      expect(unlabelled, path).toEqual([]);
      if (name !== 'hostile-memory') await page.screenshot({ path: join(GALLERY, `${name}.png`) });
    }
    expect(foreign).toEqual([]);
    // The hostile text is shown as text.
    await expect(page.locator('[data-tier="content"]').textContent()).resolves.toContain(HOSTILE);
    await page.goto(`${adminUi.origin}/procedure/deploy-the-blog`);
    await expect(page.locator('article.markdown strong').first().textContent()).resolves.toBe('preview');
    await expect(page.locator('article.markdown a[href^="javascript:"]').count()).resolves.toBe(0);
    await expect(page.locator('article.markdown img, article.markdown script').count()).resolves.toBe(0);
    await page.goto(`${adminUi.origin}/opinion/${ids.opinion}`);
    // The version's own value, two recorded changes, and the current confidence.
    await expect(page.locator('svg[role="img"] circle').count()).resolves.toBe(4);
    await page.close();
  }, 60_000);

  it('shows whose each memory is, counts per user, sorts by user, and has a dark scheme', async () => {
    const page = await open();
    await page.goto(`${adminUi.origin}/memories?sort=user`);
    const firstRow = page.locator('tbody tr[data-row]').first();
    await expect(firstRow.locator('td.scope').textContent()).resolves.toContain('alice');
    await expect(page.locator('tbody tr[data-row]').last().locator('td.scope').textContent()).resolves.toContain('bob');
    await expect(page.locator('th[aria-sort]').textContent()).resolves.toContain('scope');
    await page.goto(`${adminUi.origin}/users`);
    await expect(page.locator('tr[data-user="alice"] td[data-count]').textContent()).resolves.toBe(
      String(await alice.count()),
    );
    await expect(page.locator('tr[data-user="bob"] td[data-count]').textContent()).resolves.toBe('1');
    const light = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    const dark = await browser.newContext({ viewport: { width: 1100, height: 760 }, colorScheme: 'dark' });
    try {
      const night = await open(dark);
      await night.goto(adminUi.url);
      await night.goto(`${adminUi.origin}/memories`);
      const background = await night.evaluate('getComputedStyle(document.body).backgroundColor');
      expect(background).not.toBe(light);
      await night.screenshot({ path: join(GALLERY, 'memories-dark.png') });
    } finally {
      await dark.close();
    }
    await page.close();
  });

  it('a bulk forget of ticked rows asks first, and only the confirmation deletes them', async () => {
    const extra = await bob.retain([
      { content: 'Bob collects stamps.', category: 'hobbies' },
      { content: 'Bob sings in a choir.', category: 'hobbies' },
    ]);
    const page = await open();
    await page.goto(`${adminUi.origin}/memories?userId=bob&category=hobbies`);
    await expect(page.locator('tbody tr[data-row]').count()).resolves.toBe(2);
    await page.getByLabel('Select every memory on this page').check();
    await page.getByRole('button', { name: 'Forget selected…' }).click();
    await expect(page.locator('#confirm-question').textContent()).resolves.toBe('Forget 2 memories for good?');
    await page.screenshot({ path: join(GALLERY, 'bulk-forget.png') });
    expect(await bob.count({ categories: ['hobbies'] })).toBe(2);
    await page.getByRole('button', { name: 'Yes, forget 2 memories' }).click();
    await expect(page.locator('[role="status"]').first().textContent()).resolves.toContain('Forgot 2 memories');
    expect(await bob.count({ categories: ['hobbies'] })).toBe(0);
    for (const id of extra.ids) await expect(admin.get(id)).rejects.toBeInstanceOf(NotFoundError);
    await page.close();
  });

  it('the core block is edited in the page, confirmed with a diff, and read by the library', async () => {
    const page = await open();
    await page.goto(`${adminUi.origin}/core?userId=alice`);
    await page
      .getByLabel('The block, one fact or preference per line')
      .fill('Alice prefers short answers.\nAlice is on call this week.');
    await page.getByRole('button', { name: 'Review the change…' }).click();
    await expect(page.locator('ol.diff li.added').textContent()).resolves.toContain('Alice is on call this week.');
    await expect(page.locator('ol.diff li.removed').textContent()).resolves.toContain('Alice lives in Lisbon.');
    await expect(page.locator('ol.diff li.same').textContent()).resolves.toContain('Alice prefers short answers.');
    await page.screenshot({ path: join(GALLERY, 'core-confirm.png') });
    expect((await alice.core.get()).text).not.toContain('on call');
    await page.getByRole('button', { name: 'Yes, save' }).click();
    await expect(page.locator('[role="status"]').first().textContent()).resolves.toContain('Saved');
    expect((await alice.core.get()).text.trim()).toBe('Alice prefers short answers.\nAlice is on call this week.');
    expect((await bob.core.get()).text).toBe('');
    await page.close();
  });

  it('a search returns the retained memory, with its score breakdown, citation and token cost', async () => {
    const page = await open();
    await page.goto(`${adminUi.origin}/search`);
    await page.keyboard.press('/');
    await page.keyboard.type('where does Alice live');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?/);
    const first = page.locator('ol.results > li').first();
    await expect(first.locator('a').first().textContent()).resolves.toContain('Alice lives in Lisbon');
    await expect(first.locator('cite').textContent()).resolves.toBe('memory/2025-11-20.md#L4');
    await expect(first.locator('table.breakdown th', { hasText: 'lexical' }).count()).resolves.toBe(1);
    expect(Number(await page.locator('[data-tokens]').textContent())).toBeGreaterThan(0);
    await page.goto(`${adminUi.origin}/search?q=Alice&kind=opinion`);
    await expect(page.locator('ol.results > li').count()).resolves.toBe(1);
    await page.close();
  });

  it('a correction made in the page is seen by the library afterwards', async () => {
    const page = await open();
    await page.goto(`${adminUi.origin}/memory/${ids.coffee}`);
    await page.getByLabel('Corrected text').fill('Alice takes her coffee with oat milk now.');
    await page.getByRole('button', { name: 'Correct…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Confirm: correct');
    // Asking is not doing: the library still holds the old version as current.
    expect((await admin.get(ids.coffee!)).validTo).toBeNull();
    await page.getByRole('button', { name: 'Yes, correct' }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain('Corrected');
    const history = await alice.history(ids.coffee!);
    expect(history.versions.map((version) => version.memory.content)).toEqual([
      'Alice takes her coffee black.',
      'Alice takes her coffee with oat milk now.',
    ]);
    expect(history.current).not.toBe(ids.coffee);
    const recalled = await alice.recall('how does Alice take her coffee', { k: 1 });
    expect(recalled.results[0]?.memory.content).toBe('Alice takes her coffee with oat milk now.');
    await page.close();
  });

  it('an edit is confirmed, applied through the client, and can be undone', async () => {
    const page = await open();
    await page.goto(`${adminUi.origin}/memory/${ids.peanuts}`);
    await page.getByLabel('Importance (0..1)').fill('0.9');
    await page.getByRole('button', { name: 'Edit…' }).click();
    await page.getByRole('button', { name: 'Yes, edit' }).click();
    // The click only submits: the page the redirect lands on says when the edit was applied.
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain('Saved');
    expect((await alice.get(ids.peanuts!)).importance).toBe(0.9);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain('Edit undone');
    expect((await alice.get(ids.peanuts!)).importance).toBe(0.5);
    await page.close();
  }, 60_000);

  it('a forget asks first, and only the confirmation deletes', async () => {
    const page = await open();
    await page.goto(`${adminUi.origin}/memory/${ids.hostile}`);
    await page.getByRole('button', { name: 'Forget…' }).click();
    await expect(page.getByRole('alertdialog').count()).resolves.toBe(1);
    await expect(page.locator('#confirm-question').textContent()).resolves.toContain('Forget this memory');
    expect((await admin.get(ids.hostile!)).id).toBe(ids.hostile);
    await page.getByRole('button', { name: 'Yes, forget' }).click();
    await page.waitForURL(/\/memories/);
    await expect(admin.get(ids.hostile!)).rejects.toBeInstanceOf(NotFoundError);
    await expectNoScriptRan(page);
    await page.close();
  });

  it('refuses a browser without the token, and a page addressed to a foreign host name (DNS rebinding)', async () => {
    const stranger = await browser.newContext();
    const page = await open(stranger);
    expect((await page.goto(`${adminUi.origin}/memories`))?.status()).toBe(401);
    expect((await page.goto(`${adminUi.origin}/memories?token=${TOKEN.slice(0, -1)}x`))?.status()).toBe(401);
    await expect(page.getByText('Alice').count()).resolves.toBe(0);
    // rebind.example resolves to 127.0.0.1 in this browser: the guard refuses the Host, token or not.
    const rebound = `http://rebind.example:${adminUi.port}`;
    expect((await page.goto(`${rebound}/?token=${TOKEN}`))?.status()).toBe(403);
    expect((await page.goto(`${rebound}/memories`))?.status()).toBe(403);
    await stranger.close();
    const status = await new Promise<number>((done, fail) => {
      const req = request(
        `${adminUi.address}/memories`,
        { headers: { host: 'evil.example', authorization: `Bearer ${TOKEN}` } },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.on('error', fail);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("a scoped view never shows another user's memory, whatever the request asks", async () => {
    const own = await browser.newContext();
    const page = await open(own);
    await page.goto(aliceUi.url);
    await expect(page.getByText('Alice lives in Lisbon').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('form#scope').count()).resolves.toBe(0);
    const probes = [
      '/memories',
      '/memories?userId=bob',
      '/memories?entity=Porto',
      '/search?q=secret+boat+Porto',
      '/search?q=boat&userId=bob',
      '/entities',
      '/entities?userId=bob',
      '/entity/Porto',
      '/sessions',
      '/opinions?userId=bob',
      '/health?userId=bob',
    ];
    for (const path of probes) {
      await page.goto(`${aliceUi.origin}${path}`);
      const text = await page.locator('body').textContent();
      expect(text, path).not.toContain('secret boat');
      expect(text, path).not.toContain('Porto harbour');
      expect(text, path).not.toContain('session_bob_1');
    }
    // Health counts in the background; reload until its figures are in.
    for (let attempt = 0; attempt < 50; attempt++) {
      await page.goto(`${aliceUi.origin}/health?userId=bob`);
      if ((await page.locator('[data-total]').count()) > 0) break;
      await page.waitForTimeout(100);
    }
    await expect(page.locator('[data-total]').textContent()).resolves.toBe(String(await alice.count()));
    expect((await page.goto(`${aliceUi.origin}/memory/${ids.bob}`))?.status()).toBe(404);
    // The admin view can switch to bob's scope.
    const adminPage = await open();
    await adminPage.goto(`${adminUi.origin}/memories`);
    await adminPage.getByLabel('user').fill('bob');
    await adminPage.getByRole('button', { name: 'Switch scope' }).click();
    await expect(adminPage.getByText('Bob keeps a secret boat').count()).resolves.toBe(1);
    await expect(adminPage.getByText('Alice lives in Lisbon').count()).resolves.toBe(0);
    await own.close();
    await adminPage.close();
  });

  it('a read-only view shows no actions and refuses changes', async () => {
    const readOnly = await serveUi({ client: admin, token: TOKEN, readOnly: true });
    try {
      const page = await open(await browser.newContext());
      await page.goto(readOnly.url);
      await page.goto(`${readOnly.origin}/memory/${ids.lisbon}`);
      await expect(page.getByRole('button', { name: 'Forget…' }).count()).resolves.toBe(0);
      const status = await new Promise<number>((done, fail) => {
        const req = request(
          `${readOnly.address}/memory/${ids.lisbon}/forget`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${TOKEN}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
          },
          (res) => {
            res.resume();
            done(res.statusCode ?? 0);
          },
        );
        req.on('error', fail);
        req.end('confirm=yes');
      });
      expect(status).toBe(403);
      expect((await admin.get(ids.lisbon!)).id).toBe(ids.lisbon);
    } finally {
      await readOnly.close();
    }
  });

  it('the sign-in cookie stays with the view: another server on 127.0.0.1 or localhost never receives it', async () => {
    // A dev server, a container's published port: any other local server the user opens later.
    const seen: string[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.cookie ?? '');
      res.end('another local server');
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const port = (other.address() as AddressInfo).port;
    const own = await browser.newContext();
    try {
      const page = await open(own);
      await page.goto(adminUi.url);
      expect(page.url()).toBe(`${adminUi.origin}/memories`);
      const cookies = await own.cookies();
      expect(cookies.map((cookie) => cookie.domain)).toEqual([adminUi.hostName]);
      // The cookie carries a value derived from the token, never the token.
      expect(cookies[0]!.value).not.toContain(TOKEN);
      for (const host of ['127.0.0.1', 'localhost']) await page.goto(`http://${host}:${port}/`);
      // Each page, and whatever else the browser asks that server for (its favicon).
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const header of seen) expect(header).not.toMatch(/memoir_ui/);
    } finally {
      await own.close();
      await new Promise<void>((done) => other.close(() => done()));
    }
  });
});
