import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { viewFetch } from '../helpers/view-fetch.js';
import { bin, childEnvironment } from '../integrations/mcp-harness.js';

// `memoir ui` as a user runs it: a real child process over a home the CLI filled, its URL read
// from stdout, its pages fetched over HTTP with the cookie the URL's token is traded for.

const run = promisify(execFile);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

function serve(home: string, args: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [bin, ...args, 'ui'], {
    env: childEnvironment({ MEMOIR_HOME: home }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const url = /^(http:\/\/memoir-[0-9a-f]+\.localhost:\d+\/\?token=\S+)$/m.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`memoir ui exited with ${code}: ${stderr}`)));
  });
}

/** A page as a browser sees it after opening `url` (the memory list by default). */
async function memoriesPage(url: string, path = '/memories'): Promise<string> {
  const first = await viewFetch(url);
  expect(first.status).toBe(303);
  const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  const origin = new URL(url).origin;
  const page = await viewFetch(`${origin}${path}`, { headers: { cookie } });
  expect(page.status).toBe(200);
  return page.text();
}

describe('memoir ui', () => {
  it('serves the memories of its home at the URL it prints, and nothing without the token', async () => {
    const home = tempDir('memoir-ui-cli-');
    const env = { env: childEnvironment({ MEMOIR_HOME: home }) };
    await run(process.execPath, [bin, '--user', 'peter', 'retain', 'Peter prefers concise replies on WhatsApp.'], env);
    await run(process.execPath, [bin, '--user', 'zoe', 'retain', 'Zoe keeps her passwords in a notebook.'], env);
    const url = await serve(home);
    const admin = await memoriesPage(url);
    expect(admin).toContain('Peter prefers concise replies on WhatsApp.');
    expect(admin).toContain('Zoe keeps her passwords');
    expect((await viewFetch(`${new URL(url).origin}/memories`)).status).toBe(401);
    // The admin view counts per user; each row of the list says whose it is.
    const users = await memoriesPage(url, '/users');
    expect(users).toMatch(/data-user="peter"[\s\S]*?data-count="1"/);
    expect(users).toMatch(/data-user="zoe"[\s\S]*?data-count="1"/);
    expect(admin).toMatch(/<td class="scope">[\s\S]*?zoe/);

    const scoped = await memoriesPage(await serve(home, ['--user', 'peter']));
    expect(scoped).toContain('Peter prefers concise replies on WhatsApp.');
    expect(scoped).not.toContain('Zoe keeps her passwords');
    const scopedUsers = await memoriesPage(await serve(home, ['--user', 'peter']), '/users');
    expect(scopedUsers).toContain('data-user="peter"');
    expect(scopedUsers).not.toContain('zoe');
  }, 60_000);
});
