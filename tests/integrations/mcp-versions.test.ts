import { afterEach, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, type McpConnection, textOf } from './mcp-harness.js';

// memory_history, memory_correct and as_of through the real `memoir mcp` and the official MCP
// client, on a SQLite home: what an agent reads, and that a server started for one user never
// reaches another user's versions.

const open: McpConnection[] = [];
async function start(home: string, args: string[] = []): Promise<McpConnection> {
  const connection = await connectMemoirMcp({ home, args, tools: 'all' });
  open.push(connection);
  return connection;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

interface History {
  id: string;
  current: string | null;
  versions: Array<{ id: string; content: string; from: string; until: string | null; supersededBy: string | null }>;
}

// memory_retain takes no date: a dated fact is retained by the CLI into the same home first.
async function retainDated(home: string, content: string, occurredAt: string): Promise<string> {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: home } };
  const code = await runCli(['--json', 'retain', content, '--entity', 'Peter', '--occurred-at', occurredAt], io);
  expect(code, stderr.text).toBe(0);
  return (JSON.parse(stdout.text) as { ids: string[] }).ids[0]!;
}

describe('versions over MCP', { timeout: 90_000 }, () => {
  it('lists memory_history and memory_correct, and as_of on the recall tools', async () => {
    const server = await start(tempDir('memoir-mcp-versions-'));
    const { tools } = await server.client.listTools();
    const history = tools.find((tool) => tool.name === 'memory_history')!;
    const correct = tools.find((tool) => tool.name === 'memory_correct')!;
    expect(history.annotations?.readOnlyHint).toBe(true);
    expect(correct.annotations?.readOnlyHint).toBe(false);
    expect(correct.annotations?.destructiveHint).toBe(false);
    expect(correct.inputSchema).toMatchObject({ required: ['content'], additionalProperties: false });
    expect(correct.description).toMatch(/supersedes/);
    expect(Object.keys(tools.find((tool) => tool.name === 'memory_recall')!.inputSchema.properties ?? {})).toContain(
      'as_of',
    );
  });

  it("memory_retain's origin and speaker: a document or another speaker never ends the user's fact", async () => {
    const server = await start(tempDir('memoir-mcp-versions-'));
    const vienna = dataOf<{ id: string }>(await server.call('memory_retain', { content: 'I live in Vienna.' })).id;
    await server.call('memory_retain', { content: 'I moved to Berlin last month.', origin: 'document' });
    await server.call('memory_retain', { content: 'I moved to Lisbon.', speaker: 'Mallory' });
    const read = dataOf<{ memory: { validTo: string | null } }>(await server.call('memory_get', { memory_id: vienna }));
    expect(read.memory.validTo).toBeNull();
    await server.call('memory_retain', { content: 'I moved to Graz.' });
    const after = dataOf<{ memory: { validTo: string | null } }>(
      await server.call('memory_get', { memory_id: vienna }),
    );
    expect(after.memory.validTo).not.toBeNull();
    const refused = await server.call('memory_retain', { content: 'x', origin: 'rumour' });
    expect(refused.isError).toBe(true);
  });

  it('corrects a fact, shows its history from either end, and recall marks the old version superseded', async () => {
    const server = await start(tempDir('memoir-mcp-versions-'));
    const old = dataOf<{ id: string }>(
      await server.call('memory_retain', {
        content: 'Peter lives in Vienna.',
        entities: ['Peter'],
        category: 'profile',
      }),
    ).id;
    const corrected = await server.call('memory_correct', { memory_id: old, content: 'Peter lives in Lisbon.' });
    const { id: lisbon, supersedes } = dataOf<{ id: string; supersedes: string }>(corrected);
    expect(supersedes).toBe(old);
    expect(textOf(corrected)).toContain(`Stored ${lisbon}, which supersedes ${old}.`);

    for (const [args, asked] of [
      [{ memory_id: old }, old],
      [{ id: lisbon }, lisbon],
    ] as const) {
      const result = await server.call('memory_history', args);
      const history = dataOf<History>(result);
      expect(history.id).toBe(asked);
      expect(history.current).toBe(lisbon);
      expect(history.versions.map((version) => [version.id, version.content])).toEqual([
        [old, 'Peter lives in Vienna.'],
        [lisbon, 'Peter lives in Lisbon.'],
      ]);
      expect(history.versions[0]).toMatchObject({ supersededBy: lisbon, category: 'profile' });
      expect(history.versions[1]).toMatchObject({ until: null, category: 'profile' });
      expect(textOf(result)).toMatch(new RegExp(`${lisbon} \\[current\\]: Peter lives in Lisbon\\.`));
      expect(textOf(result)).toContain(`The current version is ${lisbon}`);
    }

    const recalled = await server.call('memory_recall', { query: 'where does Peter live', k: 5 });
    const text = textOf(recalled);
    const entry = (id: string) => text.split('\n').find((line) => line.startsWith(`<memory id="${id}"`)) ?? '';
    expect(entry(old)).toMatch(/status="until \d{4}-\d{2}-\d{2}, superseded"/);
    expect(entry(lisbon)).not.toContain('status=');
    const ids = dataOf<{ results: Array<{ id: string }> }>(recalled).results.map((result) => result.id);
    expect(ids.indexOf(lisbon)).toBeLessThan(ids.indexOf(old));

    const searched = textOf(await server.call('memory_recall', { query: 'where does Peter live', format: 'list' }));
    expect(searched.split('\n').find((line) => line.includes(old))).toContain(`superseded by ${lisbon}`);
  });

  it('as_of answers with the version true then', async () => {
    const home = tempDir('memoir-mcp-versions-');
    const vienna = await retainDated(home, 'Peter lives in Vienna.', '2024-03-01');
    const server = await start(home);
    const lisbon = dataOf<{ id: string }>(
      await server.call('memory_correct', { id: vienna, content: 'Peter lives in Lisbon.', occurred_at: '2025-03-01' }),
    ).id;
    const now = dataOf<{ results: Array<{ id: string }> }>(
      await server.call('memory_recall', { query: 'where does Peter live' }),
    );
    expect(now.results[0]?.id).toBe(lisbon);
    const then = dataOf<{ results: Array<{ id: string }> }>(
      await server.call('memory_recall', { query: 'where does Peter live', as_of: '2024-06-01', format: 'list' }),
    );
    expect(then.results[0]?.id).toBe(vienna);
  });

  it('keeps to the scope it was started with: another user’s id is not found, and nothing of theirs changes', async () => {
    const home = tempDir('memoir-mcp-versions-');
    const ana = await start(home, ['--user', 'ana']);
    const anas = dataOf<{ id: string }>(await ana.call('memory_retain', { content: 'Ana lives in Porto.' })).id;
    await ana.close();
    const ben = await start(home, ['--user', 'ben']);
    const history = await ben.call('memory_history', { memory_id: anas });
    expect(history.isError).toBe(true);
    expect(textOf(history)).toMatch(/does not exist/);
    expect(textOf(history)).not.toContain('Porto');
    const correct = await ben.call('memory_correct', { memory_id: anas, content: 'Ana lives in Faro.' });
    expect(correct.isError).toBe(true);
    expect(textOf(correct)).toMatch(/does not exist/);
    await ben.close();
    const anaAgain = await start(home, ['--user', 'ana']);
    const after = dataOf<History>(await anaAgain.call('memory_history', { id: anas }));
    expect(after.versions.map((version) => version.content)).toEqual(['Ana lives in Porto.']);
  });

  it('bad arguments are tool errors naming the field', async () => {
    const server = await start(tempDir('memoir-mcp-versions-'));
    const id = dataOf<{ id: string }>(await server.call('memory_retain', { content: 'A fact.' })).id;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['memory_history', {}, /memory_id/],
      ['memory_history', { memory_id: '' }, /memory_id/],
      ['memory_history', { memory_id: id, extra: 1 }, /extra/],
      ['memory_correct', { memory_id: id }, /content/],
      ['memory_correct', { memory_id: id, content: '   ' }, /content/],
      ['memory_correct', { memory_id: id, content: 'x', occurred_at: 'someday' }, /occurred_at/],
      ['memory_recall', { query: 'x', as_of: 'someday' }, /as_of/],
      ['memory_recall', { query: 'x', as_of: 42, format: 'list' }, /as_of/],
    ];
    for (const [name, args, field] of cases) {
      const result = await server.call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(field);
    }
  });
});
