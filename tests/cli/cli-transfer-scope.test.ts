import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { type CliIo, runCli, type StoreFactoryOptions } from '../../src/cli/index.js';
import type { MemoryStore } from '../../src/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// `memoir export` and `memoir import` run by a scoped person (--user, MEMOIR_USER_ID) touch
// that scope only: the export holds no line of another user, and an import never replaces
// or plants another user's memory. An unscoped (admin) run covers the whole store and says so.
// Every store the CLI can keep between runs: the default SQLite file and a LanceDB directory.

type CliStore = [name: string, make: (options: StoreFactoryOptions) => MemoryStore];

const CLI_STORES: CliStore[] = [
  ['sqlite', ({ home, logger }) => createSqliteStore({ path: join(home, 'memoir.sqlite'), logger })],
  ['lancedb', ({ home, logger }) => createLanceStore({ uri: join(home, 'lancedb'), logger })],
];

interface Line {
  type: string;
  memory?: { id: string; content: string; scope: { userId?: string } };
  record?: { id: string; scope: { userId?: string } };
}

const parse = (text: string): Line[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);

const scopeOf = (line: Line) => line.memory?.scope ?? line.record?.scope;

describe.each(CLI_STORES)('memoir export and import keep to the run’s scope (%s store)', (_name, createStore) => {
  const root = tempDir('memoir-cli-transfer-scope-');
  let homes = 0;

  async function memoir(home: string, argv: string[], env: Record<string, string> = {}, stdin?: string) {
    const stdout = captureOutput();
    const stderr = captureOutput();
    const io: CliIo = {
      stdout,
      stderr,
      env: { MEMOIR_HOME: home, ...env },
      createStore,
      stdin: stdin === undefined ? undefined : Readable.from([stdin]),
    };
    const code = await runCli(argv, io);
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  async function retain(home: string, user: string, text: string): Promise<string> {
    const run = await memoir(home, ['--user', user, '--json', 'retain', text, '--entity', 'Peter']);
    expect(run.code, run.stderr).toBe(0);
    return (JSON.parse(run.stdout) as { memories: Array<{ id: string }> }).memories[0]!.id;
  }

  /** A home with two of alice's memories and one of bob's. */
  async function twoUsers() {
    const home = join(root, `home-${++homes}`);
    await retain(home, 'alice', 'Alice keeps the home server in the garage.');
    await retain(home, 'alice', 'Alice prefers dark mode in every editor.');
    const bobId = await retain(home, 'bob', 'Bob keeps his bank PIN 4711 in the attic safe.');
    return { home, bobId };
  }

  async function bobMemory(home: string, id: string) {
    const run = await memoir(home, ['--user', 'bob', '--json', 'get', id]);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as { content: string; scope: { userId?: string } };
  }

  it('export with --user alice (or MEMOIR_USER_ID=alice) writes no line of bob’s, and says whose it is', async () => {
    const { home } = await twoUsers();
    const file = join(home, 'alice.jsonl');
    const flagged = await memoir(home, ['--user', 'alice', 'export', file]);
    expect(flagged.code, flagged.stderr).toBe(0);
    const fromVariable = await memoir(home, ['export', '-'], { MEMOIR_USER_ID: 'alice' });
    expect(fromVariable.code, fromVariable.stderr).toBe(0);
    for (const text of [readFileSync(file, 'utf8'), fromVariable.stdout]) {
      expect(text).not.toMatch(/bob|PIN 4711/i);
      const lines = parse(text).filter((line) => line.type !== 'header');
      expect(lines.filter((line) => line.type === 'memory')).toHaveLength(2);
      expect(lines.every((line) => scopeOf(line)?.userId === 'alice')).toBe(true);
    }
    expect(flagged.stdout).toMatch(/of the scope userId=alice/);

    // The admin run covers everything, and says so.
    const everything = join(home, 'all.jsonl');
    const admin = await memoir(home, ['--json', 'export', everything]);
    expect(admin.code, admin.stderr).toBe(0);
    expect(JSON.parse(admin.stdout)).toMatchObject({ memories: 3, scope: null });
    expect(readFileSync(everything, 'utf8')).toMatch(/PIN 4711/);
    expect((await memoir(home, ['export', join(home, 'all-2.jsonl')])).stdout).toMatch(/whole store/);
  });

  it('import with --user alice never replaces bob’s memory by id nor plants one in bob’s scope', async () => {
    const { home, bobId } = await twoUsers();
    const full = join(home, 'full.jsonl');
    expect((await memoir(home, ['export', full])).code).toBe(0);
    const lines = readFileSync(full, 'utf8').split('\n').filter(Boolean);
    const header = lines[0]!;
    const bobLine = JSON.parse(lines.find((line) => line.includes(bobId))!) as Required<Pick<Line, 'memory'>> & Line;

    const attacks: Record<string, Line> = {
      'bob’s id, bob’s scope': { ...bobLine, memory: { ...bobLine.memory, content: 'hijacked by alice' } },
      'bob’s id, moved into alice’s scope': {
        ...bobLine,
        memory: { ...bobLine.memory, content: 'hijacked by alice', scope: { userId: 'alice' } },
      },
      'a new memory in bob’s scope': {
        ...bobLine,
        memory: { ...bobLine.memory, id: 'planted-by-alice', content: 'planted by alice' },
      },
    };
    // Records (entities, sessions, …) are held to the same rule as memories.
    const bobRecord = lines
      .map((line) => JSON.parse(line) as Line)
      .find((line) => line.record !== undefined && line.record.scope.userId === 'bob');
    expect(bobRecord, 'bob has an entity record').toBeDefined();
    attacks['bob’s entity record, moved into alice’s scope'] = {
      ...bobRecord!,
      record: { ...bobRecord!.record!, scope: { userId: 'alice' } },
    };
    attacks['bob’s entity record'] = bobRecord!;
    for (const [label, attack] of Object.entries(attacks)) {
      const file = join(home, 'attack.jsonl');
      writeFileSync(file, `${header}\n${JSON.stringify(attack)}\n`);
      const flagged = await memoir(home, ['--user', 'alice', 'import', file]);
      expect(flagged.code, label).not.toBe(0);
      const piped = await memoir(home, ['import', '-'], { MEMOIR_USER_ID: 'alice' }, readFileSync(file, 'utf8'));
      expect(piped.code, label).not.toBe(0);
    }
    expect(await bobMemory(home, bobId)).toMatchObject({
      content: 'Bob keeps his bank PIN 4711 in the attic safe.',
      scope: { userId: 'bob' },
    });
    const bobs = await memoir(home, ['--user', 'bob', '--json', 'export', '-']);
    expect(parse(bobs.stdout).filter((line) => line.type === 'memory')).toHaveLength(1);
    expect(bobs.stdout).not.toMatch(/hijacked|planted/);
    const bobRecordNow = parse(bobs.stdout).find((line) => line.record?.id === bobRecord!.record!.id);
    expect(bobRecordNow?.record?.scope).toEqual({ userId: 'bob' });

    // Alice's own export goes back in.
    const own = join(home, 'alice.jsonl');
    expect((await memoir(home, ['--user', 'alice', 'export', own])).code).toBe(0);
    const back = await memoir(home, ['--user', 'alice', '--json', 'import', own]);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ memories: 2, scope: { userId: 'alice' } });
  });
});
