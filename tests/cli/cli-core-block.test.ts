import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { type CliIo, runCli, type StoreFactoryOptions } from '../../src/cli/index.js';
import type { MemoryStore } from '../../src/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// `memoir core show|append|replace|insert`: the core block from the command line, per scope,
// on every store the CLI keeps between runs, and in a real child process.

type CliStore = [name: string, make: (options: StoreFactoryOptions) => MemoryStore];

const CLI_STORES: CliStore[] = [
  ['sqlite', ({ home, logger }) => createSqliteStore({ path: join(home, 'memoir.sqlite'), logger })],
  ['lancedb', ({ home, logger }) => createLanceStore({ uri: join(home, 'lancedb'), logger })],
];

interface CoreState {
  text: string;
  tokens: number;
  limit: number;
}

describe.each(CLI_STORES)('memoir core (%s store)', (_name, createStore) => {
  const root = tempDir('memoir-cli-core-');
  let homes = 0;
  const newHome = () => {
    const home = join(root, `home-${++homes}`);
    mkdirSync(home);
    return home;
  };

  async function memoir(home: string, argv: string[], stdin?: string) {
    const stdout = captureOutput();
    const stderr = captureOutput();
    const io: CliIo = {
      stdout,
      stderr,
      env: { MEMOIR_HOME: home },
      createStore,
      stdin: stdin === undefined ? undefined : Readable.from([stdin]),
    };
    const code = await runCli(argv, io);
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  it('appends, replaces, inserts and shows the block, as text and as JSON', async () => {
    const home = newHome();
    expect((await memoir(home, ['core', 'show'])).stdout).toMatch(/The core block is empty \(0 of 2000 tokens\)/);
    expect((await memoir(home, ['core', 'append', 'Peter', 'lives', 'in', 'Vienna.'])).code).toBe(0);
    expect((await memoir(home, ['core', 'append', '-'], 'Peter prefers concise replies.')).code).toBe(0);
    expect((await memoir(home, ['core', 'replace', 'Vienna', 'Lisbon'])).code).toBe(0);
    const inserted = await memoir(home, ['core', 'insert', '--line', '0', 'Peter is the on-call lead.']);
    expect(inserted.code, inserted.stderr).toBe(0);
    const shown = await memoir(home, ['core', 'show']);
    expect(shown.stdout).toContain('Core block (');
    expect(shown.stdout).toContain(
      'Peter is the on-call lead.\nPeter lives in Lisbon.\nPeter prefers concise replies.',
    );
    const json = JSON.parse((await memoir(home, ['--json', 'core', 'show'])).stdout) as CoreState;
    expect(json).toMatchObject({
      text: 'Peter is the on-call lead.\nPeter lives in Lisbon.\nPeter prefers concise replies.\n',
      limit: 2000,
    });
  });

  it('refuses an over-limit edit and a missing target with exit code 2 and the argument named', async () => {
    const home = newHome();
    await memoir(home, ['core', 'append', 'Peter lives in Lisbon.']);
    const over = await memoir(home, ['--json', 'core', 'append', 'word '.repeat(3000)]);
    expect(over.code).toBe(2);
    const overError = (JSON.parse(over.stderr) as { error: { code: string; field: string; message: string } }).error;
    expect(overError).toMatchObject({ code: 'VALIDATION_FAILED', field: '<text>' });
    expect(overError.message).toMatch(/over its limit of 2000/);
    const missing = await memoir(home, ['core', 'replace', 'Vienna', 'Rome']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/<find>: expected text that occurs in the core block/);
    expect((await memoir(home, ['core', 'insert', '--line', '-1', 'x'])).code).toBe(2);
    expect((await memoir(home, ['--json', 'core', 'show'])).stdout).toContain('"text": "Peter lives in Lisbon.\\n"');
  });

  it('--user keeps one user’s block from another', async () => {
    const home = newHome();
    await memoir(home, ['--user', 'alice', 'core', 'append', 'Alice is allergic to peanuts.']);
    await memoir(home, ['--user', 'bob', 'core', 'append', 'Bob takes his coffee black.']);
    const bob = await memoir(home, ['--user', 'bob', 'core', 'show']);
    expect(bob.stdout).toContain('coffee black');
    expect(bob.stdout).not.toContain('peanuts');
    expect((await memoir(home, ['--user', 'alice', 'core', 'show'])).stdout).not.toContain('coffee');
    // Without a scope, the unscoped block is its own: neither user's.
    expect((await memoir(home, ['core', 'show'])).stdout).toMatch(/empty/);
  });

  it('--workspace edits memory.md', async () => {
    const home = newHome();
    const workspace = join(home, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'memory.md'), '# Memory\n- W @Peter: Lives in Vienna.\n');
    const replaced = await memoir(home, ['core', 'replace', 'Vienna', 'Lisbon', '--workspace', workspace]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'memory.md'), 'utf8')).toBe('# Memory\n- W @Peter: Lives in Lisbon.\n');
  });
});

describe('memoir core in a child process', () => {
  const run = promisify(execFile);
  const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');
  const home = tempDir('memoir-cli-core-process-');
  const env: NodeJS.ProcessEnv = { MEMOIR_HOME: home };
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && key !== 'MEMORY_STORAGE_PATH') env[key] = value;
  }
  async function memoir(...args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('an edit in one process is in the next process’s block and recall context', async () => {
    expect((await memoir('core', 'append', 'Peter prefers concise replies.')).code).toBe(0);
    const shown = await memoir('core', 'show');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Peter prefers concise replies.');
    const refused = await memoir('core', 'replace', 'Vienna', 'Rome');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: .*<find>/);
    expect((await memoir('retain', 'The staging cluster runs in Frankfurt.')).code).toBe(0);
    const recalled = JSON.parse((await memoir('recall', 'staging cluster', '--json')).stdout) as {
      core?: { text: string };
    };
    expect(recalled.core?.text).toBe('Peter prefers concise replies.\n');
    // Five processes, each loading the sources through tsx on a shared machine.
  }, 120_000);
});
