import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { type CliIo, runCli, type StoreFactoryOptions } from '../../src/cli/index.js';
import type { MemoryStore } from '../../src/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// `memoir history`, `memoir correct` and `memoir recall --as-of`, run as a user runs them, on
// every store the CLI keeps between runs: the default SQLite file and a LanceDB directory.

type CliStore = [name: string, make: (options: StoreFactoryOptions) => MemoryStore];

const CLI_STORES: CliStore[] = [
  ['sqlite', ({ home, logger }) => createSqliteStore({ path: join(home, 'memoir.sqlite'), logger })],
  ['lancedb', ({ home, logger }) => createLanceStore({ uri: join(home, 'lancedb'), logger })],
];

interface History {
  id: string;
  current: string | null;
  versions: Array<{
    memory: { id: string; content: string };
    from: string;
    until: string | null;
    reason: string | null;
  }>;
}

describe.each(CLI_STORES)('memoir history, correct and recall --as-of (%s store)', (_name, createStore) => {
  const root = tempDir('memoir-cli-versions-');
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

  async function retain(home: string, text: string, occurredAt: string, user = 'alice'): Promise<string> {
    const run = await memoir(home, [
      '--user',
      user,
      '--json',
      'retain',
      text,
      '--entity',
      'Peter',
      '--occurred-at',
      occurredAt,
    ]);
    expect(run.code, run.stderr).toBe(0);
    return (JSON.parse(run.stdout) as { memories: Array<{ id: string }> }).memories[0]!.id;
  }

  async function threeHomes(home: string) {
    const berlin = await retain(home, 'Peter lives in Berlin.', '2023-03-01');
    const vienna = await retain(home, 'Peter lives in Vienna.', '2024-03-01');
    const lisbon = await retain(home, 'Peter lives in Lisbon.', '2025-03-01');
    return { berlin, vienna, lisbon };
  }

  it('history prints the chain oldest first, from any of its ids, as a table and as JSON', async () => {
    const home = newHome();
    const { berlin, vienna, lisbon } = await threeHomes(home);
    for (const id of [berlin, vienna, lisbon]) {
      const table = await memoir(home, ['--user', 'alice', 'history', id]);
      expect(table.code, table.stderr).toBe(0);
      const lines = table.stdout.split('\n');
      expect(lines[0]).toMatch(/^from\s+until\s+id\s+content\s+reason$/);
      expect(lines[1]).toMatch(new RegExp(`^2023-03-01\\s+2024-03-01\\s+${berlin}\\s+Peter lives in Berlin\\.\\s+\\S`));
      expect(lines[2]).toMatch(new RegExp(`^2024-03-01\\s+2025-03-01\\s+${vienna}\\s+Peter lives in Vienna\\.`));
      expect(lines[3]).toMatch(new RegExp(`^2025-03-01\\s+now\\s+${lisbon} \\*\\s+Peter lives in Lisbon\\.$`));
      expect(table.stdout).toContain(`3 versions; * current: ${lisbon}.`);

      const json = await memoir(home, ['--user', 'alice', '--json', 'history', id]);
      const history = JSON.parse(json.stdout) as History;
      expect(history.id).toBe(id);
      expect(history.current).toBe(lisbon);
      expect(history.versions.map((version) => version.memory.id)).toEqual([berlin, vienna, lisbon]);
    }
  });

  it('correct prints the new id and the history; the old version is kept and superseded', async () => {
    const home = newHome();
    const old = await retain(home, 'The Peter offsite is on May 3.', '2025-04-01');
    const run = await memoir(home, [
      '--user',
      'alice',
      'correct',
      old,
      'The',
      'Peter',
      'offsite',
      'is',
      'on',
      'May',
      '5.',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const newId = /the new version is (\S+)\./.exec(run.stdout)?.[1];
    expect(newId).toMatch(/^mem_/);
    expect(run.stdout).toMatch(new RegExp(`${old}\\s+The Peter offsite is on May 3\\.`));
    expect(run.stdout).toMatch(new RegExp(`${newId} \\*\\s+The Peter offsite is on May 5\\.`));

    const json = await memoir(home, ['--user', 'alice', '--json', 'get', old]);
    expect(JSON.parse(json.stdout)).toMatchObject({ supersededBy: newId, entities: ['Peter'] });

    const fromStdin = await memoir(
      home,
      ['--user', 'alice', '--json', 'correct', newId!, '-'],
      'The Peter offsite is on May 6.',
    );
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const corrected = JSON.parse(fromStdin.stdout) as { id: string; history: History };
    expect(corrected.history.versions.map((version) => version.memory.content)).toEqual([
      'The Peter offsite is on May 3.',
      'The Peter offsite is on May 5.',
      'The Peter offsite is on May 6.',
    ]);
    expect(corrected.history.current).toBe(corrected.id);
  });

  it('recall marks a superseded result, and --as-of answers with what was true then', async () => {
    const home = newHome();
    const { vienna, lisbon } = await threeHomes(home);
    const now = await memoir(home, ['--user', 'alice', 'recall', 'where does Peter live']);
    expect(now.code, now.stderr).toBe(0);
    const rows = now.stdout.split('\n').filter((line) => /^\s*\d+\s/.test(line));
    expect(rows[0]).toContain(lisbon);
    expect(rows[0]).not.toContain('superseded');
    expect(rows.find((line) => line.includes(vienna))).toContain(
      '[until 2025-03-01, superseded] Peter lives in Vienna.',
    );

    const then = await memoir(home, ['--user', 'alice', 'recall', 'where does Peter live', '--as-of', '2024-06-01']);
    expect(then.code, then.stderr).toBe(0);
    const thenRows = then.stdout.split('\n').filter((line) => /^\s*\d+\s/.test(line));
    expect(thenRows[0]).toContain(vienna);
    expect(thenRows.find((line) => line.includes(lisbon))).toContain('[from 2025-03-01]');

    const json = await memoir(home, [
      '--user',
      'alice',
      '--json',
      'recall',
      'where does Peter live',
      '--as-of',
      '2024-06-01',
    ]);
    const response = JSON.parse(json.stdout) as { results: Array<{ memory: { id: string } }> };
    expect(response.results[0]?.memory.id).toBe(vienna);
  });

  it('another user’s id is not found by history or correct, and nothing of theirs changes', async () => {
    const home = newHome();
    const { vienna } = await threeHomes(home);
    const history = await memoir(home, ['--user', 'bob', 'history', vienna]);
    expect(history.code).toBe(1);
    expect(history.stderr).toMatch(/does not exist/);
    const correct = await memoir(home, ['--user', 'bob', 'correct', vienna, 'Peter lives in Porto.']);
    expect(correct.code).toBe(1);
    expect(correct.stderr).toMatch(/does not exist/);
    const after = await memoir(home, ['--user', 'alice', '--json', 'history', vienna]);
    expect((JSON.parse(after.stdout) as History).versions).toHaveLength(3);
  });

  it('bad usage exits 2 and says what is expected', async () => {
    const home = newHome();
    const noText = await memoir(home, ['correct', 'mem_x']);
    expect(noText.code).toBe(2);
    const badTime = await memoir(home, ['recall', 'x', '--as-of', 'someday']);
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toMatch(/--as-of/);
    const blank = await memoir(home, ['correct', 'mem_x', '   ']);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/input|text/);
  });
});
