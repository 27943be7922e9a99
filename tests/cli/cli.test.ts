import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { createMemory } from '../../src/create-memory.js';
import { captureOutput } from '../helpers/cli-output.js';

const homes: string[] = [];

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'memoir-cli-'));
  homes.push(home);
  return home;
}

afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const capture = captureOutput;

interface RunOptions {
  home?: string;
  env?: Record<string, string>;
  stdin?: string;
  ttyStderr?: boolean;
}

async function memoir(argv: string[], options: RunOptions = {}) {
  const stdout = capture();
  const stderr = capture(options.ttyStderr);
  const io: CliIo = {
    stdout,
    stderr,
    env: options.env ?? (options.home ? { MEMOIR_HOME: options.home } : {}),
    stdin: options.stdin === undefined ? undefined : Readable.from([options.stdin]),
  };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function json<T = Record<string, unknown>>(text: string): T {
  return JSON.parse(text) as T;
}

const PETER = [
  'retain',
  'Peter prefers concise replies (under 1500 characters) on WhatsApp.',
  '--kind',
  'opinion',
  '--category',
  'preferences',
  '--entity',
  'Peter',
  '--entity',
  'WhatsApp',
  '--source-file',
  'memory/2025-11-20.md',
  '--source-line',
  '4',
  '--occurred-at',
  '2025-11-20T09:00:00Z',
];

describe('retain and recall', () => {
  it('retains, then recall shows the result with its citation below it', async () => {
    const home = tempHome();
    const retained = await memoir(PETER, { home });
    expect(retained.code).toBe(0);
    expect(retained.stdout).toMatch(/opinion\s+preferences\s+2025-11-20\s+Peter prefers concise replies/);
    expect(retained.stderr).toBe('');

    const recalled = await memoir(['recall', 'how long should replies to Peter be'], { home });
    expect(recalled.code).toBe(0);
    const lines = recalled.stdout.split('\n');
    const row = lines.findIndex((line) => line.includes('Peter prefers concise replies'));
    expect(row).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^#\s+score\s+id\s+kind\s+category\s+date\s+abstract$/);
    expect(lines[row + 1]).toMatch(/^\s+↳ memory\/2025-11-20\.md#L4$/);
    expect(recalled.stdout).toMatch(/1 result\b/);
  });

  it('joins several words and passes every retain option through', async () => {
    const home = tempHome();
    const { code, stdout } = await memoir(
      [
        '--json',
        'retain',
        'The',
        'Castle',
        'is',
        'the',
        'home',
        'server.',
        '--session',
        'session_1',
        '--importance',
        '0.9',
        '--bookmark',
        '--occurred-at',
        '2025-11-30',
      ],
      { home },
    );
    expect(code).toBe(0);
    const memory = json<{ memories: Array<Record<string, unknown>> }>(stdout).memories[0]!;
    expect(memory).toMatchObject({
      content: 'The Castle is the home server.',
      kind: 'world',
      category: 'note',
      sessionId: 'session_1',
      importance: 0.9,
      bookmarked: true,
      occurredAt: '2025-11-30T00:00:00.000Z',
    });
  });

  it('reads the text from stdin with "-"', async () => {
    const home = tempHome();
    const { code, stdout } = await memoir(['retain', '-', '--json'], { home, stdin: 'Line one.\nLine two.\n' });
    expect(code).toBe(0);
    expect(json<{ memories: Array<{ content: string }> }>(stdout).memories[0]!.content).toBe('Line one.\nLine two.');
  });

  it('reports a duplicate as skipped', async () => {
    const home = tempHome();
    await memoir(PETER, { home });
    const again = await memoir(PETER, { home });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Skipped: identical to memory mem_/m);
  });

  it('filters by time: a bare --until date includes that whole day', async () => {
    const home = tempHome();
    await memoir(['retain', 'Deployed the castle server in the evening.', '--occurred-at', '2025-11-30T18:00:00Z'], {
      home,
    });
    const ids = async (args: string[]) => {
      const { code, stdout } = await memoir(['recall', 'castle server', '--json', ...args], { home });
      expect(code).toBe(0);
      return json<{ results: unknown[] }>(stdout).results.length;
    };
    expect(await ids(['--until', '2025-11-30'])).toBe(1);
    expect(await ids(['--until', '2025-11-29'])).toBe(0);
    expect(await ids(['--since', '2025-11-30', '--until', '2025-11-30'])).toBe(1);
    expect(await ids(['--since', '2025-12-01'])).toBe(0);
    expect(await ids(['--since', '100000w'])).toBe(1);
    expect(await ids(['--since', '1h'])).toBe(0);
  });

  it('filters by kind, category and entity, and honours -k', async () => {
    const home = tempHome();
    await memoir(PETER, { home });
    await memoir(['retain', 'Peter lives in Vienna.', '--entity', 'Peter'], { home });
    const count = async (args: string[]) =>
      json<{ results: unknown[] }>((await memoir(['--json', 'recall', 'Peter', ...args], { home })).stdout).results
        .length;
    expect(await count([])).toBe(2);
    expect(await count(['--kind', 'opinion'])).toBe(1);
    expect(await count(['--kind', 'opinion', '--kind', 'world'])).toBe(2);
    expect(await count(['--category', 'note'])).toBe(1);
    expect(await count(['--entity', 'whatsapp'])).toBe(1);
    expect(await count(['-k', '1'])).toBe(1);
    expect(await count(['--k', '1'])).toBe(1);
  });

  it('says so when nothing matches', async () => {
    const home = tempHome();
    const { code, stdout } = await memoir(['recall', 'anything'], { home });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('No memories match.');
  });
});

describe('--json', () => {
  it('prints one parseable JSON document and nothing else, for every command', async () => {
    const home = tempHome();
    const retained = await memoir([...PETER, '--json'], { home });
    const id = json<{ ids: string[] }>(retained.stdout).ids[0]!;
    const runs = [
      retained,
      await memoir(['recall', 'Peter', '--json'], { home }),
      await memoir(['--json', 'get', id], { home }),
      await memoir(['stats', '--json'], { home }),
      await memoir(['export', join(home, 'out.jsonl'), '--json'], { home }),
      await memoir(['import', join(home, 'out.jsonl'), '--json'], { home }),
      await memoir(['reindex', '--json'], { home }),
      await memoir(['invalidate', id, '--reason', 'moved to Signal', '--json'], { home }),
      await memoir(['forget', id, '--json'], { home }),
    ];
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(() => JSON.parse(run.stdout)).not.toThrow();
    }
    const [, recall, get, stats, exported, imported, reindexed, invalidated, forgotten] = runs.map((run) =>
      json(run.stdout),
    );
    expect((recall!.results as Array<{ citation: string }>)[0]!.citation).toBe('memory/2025-11-20.md#L4');
    expect(get).toMatchObject({ id, entities: ['Peter', 'WhatsApp'] });
    expect(stats).toMatchObject({ memories: 1, entities: 2, store: 'sqlite', home });
    expect(exported).toMatchObject({ memories: 1, records: 2 });
    expect(imported).toMatchObject({ memories: 1, records: 2, skippedEmbeddings: 0 });
    expect(reindexed).toEqual({ reembedded: 1, embedder: 'local-hash-v1-256', replaced: null });
    expect(invalidated).toMatchObject({ id, invalidationReason: 'moved to Signal' });
    expect(forgotten).toEqual({ forgotten: [id] });
  });
});

describe('exit codes and errors', () => {
  it('exits 1 for a missing memory, with a hint and no stack trace', async () => {
    const home = tempHome();
    for (const argv of [
      ['get', 'mem_missing'],
      ['forget', 'mem_missing'],
      ['invalidate', 'mem_missing', '--reason', 'x'],
    ]) {
      const { code, stdout, stderr } = await memoir(argv, { home });
      expect(code, argv.join(' ')).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^error: .*memory "mem_missing" does not exist\nhint: .+\n$/);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });

  it.each([
    [['recal', 'x'], /unknown command 'recal'/, /Did you mean recall\?/],
    [['recall', 'x', '--kk', '3'], /unknown option '--kk'/, /memoir recall --help/],
    [['recall'], /missing required argument 'query'/, /memoir recall --help/],
    [['recall', 'x', '--k', 'abc'], /'abc' is invalid.*whole number from 1 to 1000/, /--help/],
    [['recall', 'x', '--k', '0'], /whole number from 1 to 1000/, /--help/],
    [['recall', 'x', '--since', 'yesterday-ish'], /'yesterday-ish' is invalid.*30d, 12h, 2w or 15m/, /--help/],
    [['recall', 'x', '--until', '2025-02-30'], /'2025-02-30' is invalid/, /--help/],
    [['recall', 'x', '--min-score', '2'], /from 0 to 1/, /--help/],
    [['recall', 'x', '--kind', 'rumour'], /world, experience, opinion, observation/, /--help/],
    [['retain', 'x', '--importance', '1.5'], /from 0 to 1/, /--help/],
    [['retain', 'x', '--source-line', '3'], /--source-line needs --source-file/, /--source-file notes\.md/],
    [['invalidate', 'mem_1'], /required option '--reason <text>' not specified/, /--help/],
    [['get', 'a', 'b'], /too many arguments/, /memoir get --help/],
  ])('exits 2 for %j', async (argv, message, hint) => {
    const home = tempHome();
    const { code, stdout, stderr } = await memoir(argv, { home });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const [first, second] = stderr.split('\n');
    expect(first).toMatch(/^error: /);
    expect(first).toMatch(message);
    expect(second).toMatch(/^hint: /);
    expect(second).toMatch(hint);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for input memoir rejects (ValidationError)', async () => {
    const home = tempHome();
    const { code, stderr } = await memoir(['retain', '   '], { home });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: retain: input\.content: expected a non-empty string/);
    expect(stderr).toMatch(/\nhint: /);
  });

  it('prints the stack with --debug', async () => {
    const home = tempHome();
    const { code, stderr } = await memoir(['--debug', 'get', 'mem_missing'], { home });
    expect(code).toBe(1);
    // First each setting and its source, then the error with its stack.
    expect(stderr).toMatch(/^\[memoir\] debug: setting home = .* \(env MEMOIR_HOME\)\n/);
    expect(stderr).toMatch(/\nerror: .*\nhint: .*\nNotFoundError: .*\n\s+at /);
  });

  it('exits 0 for --help and 2 for no command', async () => {
    const help = await memoir(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: memoir/);
    expect(help.stdout).toMatch(/recall \[options\] <query\.\.\.>/);
    const nothing = await memoir([]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/Usage: memoir/);
  });

  it('exits 1 for a bad configuration, naming the setting', async () => {
    const home = tempHome();
    const { code, stderr } = await memoir(['stats'], { env: { MEMOIR_HOME: home, MEMOIR_RECALL_K: 'many' } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: config: recallK must be/);
    expect(stderr).toMatch(/\nhint: Set MEMOIR_RECALL_K=10/);
  });
});

describe('home directory', () => {
  it('uses --home over MEMOIR_HOME', async () => {
    const envHome = tempHome();
    const flagHome = tempHome();
    await memoir(['--home', flagHome, 'retain', 'kept in the flag home'], { home: envHome });
    expect(readdirSync(flagHome)).toContain('memoir.sqlite');
    const stats = json<{ memories: number; home: string }>(
      (await memoir(['stats', '--json', '--home', flagHome], { home: envHome })).stdout,
    );
    expect(stats).toMatchObject({ memories: 1, home: flagHome });
    expect(json<{ memories: number }>((await memoir(['stats', '--json'], { home: envHome })).stdout).memories).toBe(0);
  });
});

describe('export and import', () => {
  async function seed(home: string) {
    await memoir(PETER, { home });
    await memoir(['retain', 'The Castle is the home server.', '--entity', 'The Castle', '--session', 's1'], { home });
    const { stdout } = await memoir(['retain', 'Peter lives in Berlin.', '--entity', 'Peter', '--json'], { home });
    const id = json<{ ids: string[] }>(stdout).ids[0]!;
    await memoir(['invalidate', id, '--reason', 'moved to Vienna'], { home });
  }

  it('export → import into a fresh home → export is byte-identical apart from line order', async () => {
    const first = tempHome();
    const second = tempHome();
    await seed(first);
    const a = join(first, 'a.jsonl');
    const b = join(second, 'b.jsonl');
    const exported = await memoir(['export', a], { home: first });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(
      /^Exported 3 memories and 4 records of the whole store \(every scope\) to .*a\.jsonl\.\n$/,
    );
    const imported = await memoir(['import', a], { home: second });
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported 3 memories and 4 records into the whole store \(every scope\) from /);
    expect((await memoir(['export', b], { home: second })).code).toBe(0);
    const sorted = (path: string) => readFileSync(path, 'utf8').split('\n').sort();
    expect(sorted(b)).toEqual(sorted(a));
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    // No temporary file is left beside the export.
    expect(readdirSync(second).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('streams through stdout and stdin with "-"', async () => {
    const first = tempHome();
    const second = tempHome();
    await seed(first);
    const exported = await memoir(['export', '-'], { home: first });
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(
      /^Exported 3 memories and 4 records of the whole store \(every scope\) to stdout\.\n$/,
    );
    const lines = exported.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const imported = await memoir(['import', '-', '--json'], { home: second, stdin: exported.stdout });
    expect(imported.code).toBe(0);
    expect(json(imported.stdout)).toMatchObject({ memories: 3, records: 4, skippedEmbeddings: 0 });
    const again = await memoir(['export', '-'], { home: second });
    expect(again.stdout).toBe(exported.stdout);
  });

  it('imports memories without vectors from another embedder, and says to reindex', async () => {
    const first = tempHome();
    await seed(first);
    const exported = (await memoir(['export', '-'], { home: first })).stdout.replace(
      '"embedder":{"dimensions":256,"id":"local-hash-v1-256"}',
      '"embedder":{"dimensions":1536,"id":"openai:text-embedding-3-small"}',
    );
    const second = tempHome();
    const imported = await memoir(['import', '-'], { home: second, stdin: exported });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/3 embeddings came from a different embedder/);
    expect(imported.stderr).toMatch(/hint: Run `memoir reindex`/);
    const reindexed = await memoir(['reindex'], { home: second });
    expect(reindexed.code).toBe(0);
    expect(reindexed.stdout).toMatch(/^Re-embedded 3 memories with local-hash-v1-256\./);
  });

  it('exits 2 for a bad line, naming it, and 1 for a missing file', async () => {
    const home = tempHome();
    const file = join(home, 'bad.jsonl');
    writeFileSync(
      file,
      '{"type":"header","format":"memoir-jsonl","version":1,"embedder":null}\n\n{"type":"memory","memory":{"id":"x"},"embedding":null}\n',
    );
    const bad = await memoir(['import', file], { home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: import: line 3: memory\.kind: /);
    expect(bad.stderr).toMatch(/\nhint: Fix or remove that line/);
    const missing = await memoir(['import', join(home, 'nope.jsonl')], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: cannot read .*nope\.jsonl: no such file or directory\nhint: /);
    const unwritable = await memoir(['export', join(home, 'no-such-dir', 'out.jsonl')], { home });
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/^error: cannot write .*out\.jsonl/);
  });

  it('draws a progress bar on a terminal for more than 1000 items, and only a summary otherwise', async () => {
    const home = tempHome();
    const client = createMemory({ home });
    await client.retain(Array.from({ length: 1200 }, (_, index) => `Fact number ${index} about the castle.`));
    await client.close();
    const file = join(home, 'big.jsonl');
    const tty = await memoir(['export', file], { home, ttyStderr: true });
    expect(tty.code).toBe(0);
    const clearLine = '\r\x1b[2K';
    expect(tty.stderr.startsWith(`${clearLine}exporting `)).toBe(true);
    expect(tty.stderr).toMatch(/exporting .*100% 1200\/1200/);
    expect(tty.stderr.endsWith(clearLine)).toBe(true);
    expect(tty.stdout).toMatch(/^Exported 1200 memories and 0 records of the whole store \(every scope\) to /);

    const piped = await memoir(['export', file], { home });
    expect(piped.stderr).toBe('');

    const second = tempHome();
    const imported = await memoir(['import', file], { home: second, ttyStderr: true });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/importing .*100% 1200\/1200/);
    const reindexed = await memoir(['reindex'], { home: second, ttyStderr: true });
    expect(reindexed.stderr).toMatch(/reindexing .*100% 1200\/1200/);
  });
});

describe('list', () => {
  it('lists with the filters of list() and pages with --limit and --offset', async () => {
    const home = tempHome();
    for (const [text, occurred] of [
      ['First fact about the castle.', '2025-11-01'],
      ['Second fact about the castle.', '2025-11-02'],
      ['Third fact, about Peter.', '2025-11-03'],
    ]) {
      expect((await memoir(['retain', text!, '--occurred-at', occurred!], { home })).code).toBe(0);
    }
    await memoir(PETER, { home });

    const page = async (args: string[]) => {
      const run = await memoir(['list', '--json', ...args], { home });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { memories: Array<{ content: string }>; nextOffset: number | null };
    };
    const contents = async (args: string[]) => (await page(args)).memories.map((memory) => memory.content);

    expect(await contents(['--order-by', 'occurredAt', '--direction', 'asc', '--kind', 'world'])).toEqual([
      'First fact about the castle.',
      'Second fact about the castle.',
      'Third fact, about Peter.',
    ]);
    const first = await page(['--order-by', 'occurredAt', '--direction', 'asc', '--limit', '2']);
    expect(first.memories).toHaveLength(2);
    expect(first.nextOffset).toBe(2);
    const second = await page(['--order-by', 'occurredAt', '--direction', 'asc', '--limit', '2', '--offset', '2']);
    expect(second.memories.map((memory) => memory.content)).toEqual([
      'Third fact, about Peter.',
      expect.stringContaining('Peter prefers'),
    ]);
    expect(await contents(['--kind', 'opinion'])).toEqual([expect.stringContaining('Peter prefers')]);
    expect(await contents(['--entity', 'whatsapp'])).toHaveLength(1);
    expect(await contents(['--since', '2025-11-02', '--until', '2025-11-02'])).toEqual([
      'Second fact about the castle.',
    ]);

    const table = await memoir(['list', '--limit', '3'], { home });
    expect(table.stdout).toMatch(/^id\s+kind\s+category\s+date\s+scope\s+abstract$/m);
    expect(table.stdout).toMatch(/\n3 memories \(1–3\); more with --offset 3\n$/);
    expect((await memoir(['list', '--offset', '10'], { home })).stdout).toBe('No memories at offset 10.\n');
  });

  it('leaves out invalidated memories with --valid-only, and filters on bookmarks', async () => {
    const home = tempHome();
    const id = json<{ ids: string[] }>((await memoir(['retain', 'Lives in Berlin.', '--json'], { home })).stdout)
      .ids[0]!;
    await memoir(['retain', 'Pinned fact.', '--bookmark'], { home });
    await memoir(['invalidate', id, '--reason', 'moved'], { home });
    const count = async (args: string[]) =>
      json<{ memories: unknown[] }>((await memoir(['list', '--json', ...args], { home })).stdout).memories.length;
    expect(await count([])).toBe(2);
    expect(await count(['--valid-only'])).toBe(1);
    expect(await count(['--bookmarked'])).toBe(1);
    expect(await count(['--no-bookmarked'])).toBe(1);
  });

  it('rejects an unknown sort key as bad usage', async () => {
    const run = await memoir(['list', '--order-by', 'size'], { home: tempHome() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: option '--order-by <field>' argument 'size' is invalid/);
  });
});

describe('update', () => {
  it('changes the fields update() patches, and re-embeds new content', async () => {
    const home = tempHome();
    const id = json<{ ids: string[] }>((await memoir([...PETER, '--json'], { home })).stdout).ids[0]!;
    const run = await memoir(
      [
        'update',
        id,
        '--content',
        'Peter prefers detailed replies on Signal.',
        '--kind',
        'world',
        '--category',
        'habits',
        '--entity',
        'Peter',
        '--entity',
        'Signal',
        '--importance',
        '0.8',
        '--bookmark',
        '--occurred-at',
        '2025-12-01',
        '--json',
      ],
      { home },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(json(run.stdout)).toMatchObject({
      id,
      content: 'Peter prefers detailed replies on Signal.',
      kind: 'world',
      category: 'habits',
      entities: ['Peter', 'Signal'],
      importance: 0.8,
      bookmarked: true,
      occurredAt: '2025-12-01T00:00:00.000Z',
    });
    // The new text is what recall finds now.
    const recalled = json<{ results: Array<{ memory: { id: string } }> }>(
      (await memoir(['recall', 'signal detailed', '--json'], { home })).stdout,
    );
    expect(recalled.results[0]!.memory.id).toBe(id);

    const cleared = await memoir(['update', id, '--no-entities', '--no-bookmark', '--json'], { home });
    expect(json(cleared.stdout)).toMatchObject({ entities: [], bookmarked: false });
    const shown = await memoir(['update', id, '--importance', '0.3'], { home });
    expect(shown.stdout).toMatch(/^id {10}mem_/);
    expect(shown.stdout).toMatch(/^importance {2}0\.3$/m);
  });

  it('exits 2 with nothing to change, and 1 for a missing memory', async () => {
    const home = tempHome();
    const nothing = await memoir(['update', 'mem_x'], { home });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/^error: update needs at least one field to change\nhint: Pass e\.g\. --content/);
    const missing = await memoir(['update', 'mem_missing', '--kind', 'opinion'], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/memory "mem_missing" does not exist/);
  });
});

describe('errors with --json', () => {
  it.each([
    [['recal', 'x', '--json'], 2, 'USAGE', /unknown command 'recal'/],
    [['--json', 'recall', 'x', '--kk', '3'], 2, 'USAGE', /unknown option '--kk'/],
    [['recall', '--json'], 2, 'USAGE', /missing required argument 'query'/],
    [['recall', 'x', '--k', '0', '--json'], 2, 'USAGE', /whole number from 1 to 1000/],
    [['--json', 'get', 'mem_missing'], 1, 'NOT_FOUND', /memory "mem_missing" does not exist/],
    [['--json', 'retain', '   '], 2, 'VALIDATION_FAILED', /input\.content/],
    [['--json'], 2, 'USAGE', /no command given/],
  ])('prints %j as one JSON object on stderr, with the same exit code', async (argv, exitCode, code, message) => {
    const { code: exit, stdout, stderr } = await memoir(argv, { home: tempHome() });
    expect(exit).toBe(exitCode);
    expect(stdout).toBe('');
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    const report = json<{ error: Record<string, unknown> }>(stderr);
    expect(report.error).toMatchObject({ code, exitCode });
    expect(report.error.message).toMatch(message);
    expect(typeof report.error.suggestion).toBe('string');
  });

  it('names the field at fault, and the setting for a bad configuration', async () => {
    const home = tempHome();
    const option = await memoir(['--json', 'recall', 'x', '--k', 'abc'], { home });
    expect(json<{ error: { field: string } }>(option.stderr).error.field).toBe('--k');
    const config = await memoir(['stats', '--json'], { env: { MEMOIR_HOME: home, MEMOIR_RECALL_K: 'many' } });
    expect(config.code).toBe(1);
    expect(json(config.stderr)).toMatchObject({
      error: {
        code: 'CONFIG_INVALID',
        field: 'recallK',
        suggestion: 'Set MEMOIR_RECALL_K=10, or unset it to use the default.',
      },
    });
  });

  it('keeps a "--json" after -- as text, not as the flag', async () => {
    const home = tempHome();
    const run = await memoir(['retain', '--', '--json'], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--json/);
  });
});

describe('messages that say what happened', () => {
  it('says the memories that matched did not fit the token budget', async () => {
    const home = tempHome();
    await memoir(PETER, { home });
    await memoir(['retain', 'Peter lives in Vienna and works on the castle server.', '--entity', 'Peter'], { home });
    const run = await memoir(['recall', 'Peter', '--token-budget', '3'], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('2 memories matched but none fit in 3 tokens; raise --token-budget.\n');
    const fromConfig = await memoir(['recall', 'Peter'], { env: { MEMOIR_HOME: home, MEMOIR_TOKEN_BUDGET: '3' } });
    expect(fromConfig.stdout).toBe('2 memories matched but none fit in 3 tokens; raise --token-budget.\n');
  });

  it('warns on stderr when --since is after --until', async () => {
    const home = tempHome();
    for (const command of [['recall', 'x'], ['list']]) {
      const run = await memoir([...command, '--since', '2025-12-01', '--until', '2025-11-01'], { home });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        'warning: --since 2025-12-01T00:00:00.000Z is after --until 2025-11-01T23:59:59.999Z: the range is empty, so nothing can match. Swap them?\n',
      );
    }
    const fine = await memoir(['recall', 'x', '--since', '2025-11-01', '--until', '2025-11-01'], { home });
    expect(fine.stderr).toBe('');
  });

  it('says an export target that is a directory is one, and suggests a file name', async () => {
    const home = tempHome();
    const run = await memoir(['export', home], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: ${home} is a directory, not a file\nhint: Name a file to write, e.g. \`memoir export ${join(home, 'memories.jsonl')}\`, or - for stdout.\n`,
    );
    expect(readdirSync(home).filter((name) => name.includes('partial'))).toEqual([]);
    const imported = await memoir(['import', home], { home });
    expect(imported.code).toBe(2);
    expect(imported.stderr).toMatch(/is a directory, not a file/);
  });

  it('says MEMOIR_HOME is a file rather than that config.json cannot be read', async () => {
    const file = join(tempHome(), 'afile');
    writeFileSync(file, '');
    const run = await memoir(['stats'], { home: file });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: config: home ${file} is a file, not a directory (home from env MEMOIR_HOME)\nhint: Point MEMOIR_HOME (or --home) at a directory, e.g. ~/.memoir; memoir creates it when it is missing.\n`,
    );
    const flag = await memoir(['--home', file, 'stats'], { home: tempHome() });
    expect(flag.stderr).toMatch(/^error: config: home .*afile is a file, not a directory \(home from flag --home\)/);
  });
});
