import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { agentTools } from '../../src/integrations/agent-tools.js';
import { tempDir } from '../helpers/stores.js';
import {
  bin,
  childEnvironment,
  connectMemoirMcp,
  dataOf,
  eventually,
  type McpConnection,
  textOf,
} from './mcp-harness.js';

// `memoir mcp` as hosts run it: a child process on stdio, the official client, a real SQLite
// file under MEMOIR_HOME. The seed's scenarios, tool by tool, through MCP.

const open: McpConnection[] = [];
async function start(home: string, args: string[] = [], modern = false): Promise<McpConnection> {
  const connection = await connectMemoirMcp({ home, args, modern, tools: 'all' });
  open.push(connection);
  return connection;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

interface Stored {
  id: string;
  stored: boolean;
  memory: { sessionId: string; bookmarked: boolean; metadata: Record<string, unknown>; category: string };
}

// Each test starts one to three server processes; a loaded machine needs more than the default 30 s.
describe('memoir mcp over stdio', { timeout: 90_000 }, () => {
  it('serves protocol 2026-07-28 and lists every agent tool with its JSON Schema and hints', async () => {
    const server = await start(tempDir('memoir-mcp-'), [], true);
    expect(server.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(agentTools.map((tool) => tool.name));
    const store = tools.find((tool) => tool.name === 'memory_retain')!;
    expect(store.inputSchema).toMatchObject({
      type: 'object',
      required: ['content'],
      additionalProperties: false,
      properties: { content: { type: 'string' }, category: { type: 'string' }, metadata: { type: 'object' } },
    });
    expect(store.description).toMatch(/bookmarked/);
    // The vocabulary's old names answer but are not listed: a host sends every listed definition on each turn.
    for (const old of ['memory_store', 'memory_search', 'memory_recall_steps']) {
      expect(tools.map((tool) => tool.name)).not.toContain(old);
    }
    const destructive = tools.filter((tool) => tool.annotations?.destructiveHint).map((tool) => tool.name);
    expect(destructive.sort()).toEqual([
      'memory_cleanup',
      'memory_clear_all',
      'memory_consolidate',
      'memory_delete_session',
      'memory_forget',
      'memory_restore',
    ]);
    for (const name of ['memory_clear_all', 'memory_delete_session', 'memory_restore']) {
      const tool = tools.find((each) => each.name === name)!;
      expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('confirm');
    }
    const recall = tools.find((tool) => tool.name === 'memory_recall')!;
    expect(Object.keys(recall.inputSchema.properties ?? {})).toEqual([
      'query',
      'k',
      'filters',
      'expand',
      'token_budget',
      'as_of',
      'format',
    ]);
    expect(recall.inputSchema.properties?.expand).toMatchObject({ enum: ['turn', 'window', 'session'] });
    expect(recall.inputSchema.properties?.format).toMatchObject({ enum: ['context', 'list'] });
    expect(Object.keys(store.inputSchema.properties ?? {})).toContain('session_id');
    expect(recall.annotations?.readOnlyHint).toBe(true);
  });

  it('stores a bookmarked memory with metadata in the run’s session, then lists, searches, reads, invalidates and forgets', async () => {
    const home = tempDir('memoir-mcp-');
    const server = await start(home);
    const stored = dataOf<Stored>(
      await server.call('memory_retain', {
        content: 'Important workflow completed successfully',
        category: 'workflow',
        metadata: { bookmarked: true, priority: 'high', screenshot_path: '/tmp/screenshot_1234.png' },
      }),
    );
    expect(stored.id).toMatch(/^mem_/);
    expect(stored.memory).toMatchObject({
      category: 'workflow',
      bookmarked: true,
      metadata: { bookmarked: true, priority: 'high', screenshot_path: '/tmp/screenshot_1234.png' },
    });
    const session = stored.memory.sessionId;
    expect(session).toMatch(/^session_\d{8}_\d{6}_[0-9a-f]{4}$/);
    const second = dataOf<Stored>(
      await server.call('memory_retain', { content: 'The deploy runs from the release branch.' }),
    );
    expect(second.memory.sessionId).toBe(session);

    const listed = await server.call('memory_list', { session_id: 'current' });
    expect(textOf(listed)).toContain(`2 memories in session ${session}`);
    expect(textOf(listed)).toContain('[bookmarked]');
    expect(dataOf<{ count: number }>(listed).count).toBe(2);

    const found = await server.call('memory_recall', { query: 'workflow completed', k: 3, format: 'list' });
    expect(textOf(found)).toContain(stored.id);
    const recalled = await server.call('memory_recall', {
      query: 'which branch does the deploy use',
      filters: { session_id: 'current' },
      token_budget: 300,
    });
    expect(textOf(recalled)).toContain('untrusted historical data');
    expect(textOf(recalled)).toContain('release branch');

    const read = await server.call('memory_get', { memory_id: stored.id });
    expect(textOf(read)).toContain('"screenshot_path":"/tmp/screenshot_1234.png"');

    const invalidated = await server.call('memory_invalidate', { memory_id: second.id, reason: 'moved to main' });
    expect(textOf(invalidated)).toContain('moved to main');
    const afterInvalidate = await server.call('memory_recall', { query: 'release branch deploy', format: 'list' });
    expect(textOf(afterInvalidate)).not.toContain(second.id);

    const candidates = await server.call('memory_forget', { query: 'important workflow' });
    expect(textOf(candidates)).toContain('Nothing deleted yet');
    expect(textOf(candidates)).toContain(stored.id);
    const forgotten = await server.call('memory_forget', { memory_id: stored.id });
    expect(dataOf<{ deleted: number }>(forgotten).deleted).toBe(1);
    expect((await server.call('memory_get', { memory_id: stored.id })).isError).toBe(true);
  });

  it('resumes a session after the server restarts, and lists the sessions', async () => {
    const home = tempDir('memoir-mcp-');
    const first = await start(home);
    const earlier = dataOf<Stored>(
      await first.call('memory_retain', { content: 'Half way through migrating the billing tables to Postgres.' }),
    );
    const earlierSession = earlier.memory.sessionId;
    await first.close();

    const second = await start(home);
    const fresh = dataOf<Stored>(await second.call('memory_retain', { content: 'Lunch order: noodles.' }));
    expect(fresh.memory.sessionId).not.toBe(earlierSession);

    const sessions = await second.call('memory_list_sessions');
    const listed = dataOf<{ current: string; sessions: Array<{ id: string; memoryCount: number }> }>(sessions);
    expect(listed.current).toBe(fresh.memory.sessionId);
    expect(listed.sessions.map((session) => session.id)).toEqual(
      expect.arrayContaining([earlierSession, fresh.memory.sessionId]),
    );
    expect(textOf(sessions)).toContain(earlierSession);

    const resumed = await second.call('memory_resume_session', { session_id: earlierSession });
    expect(textOf(resumed)).toContain(`Resumed session ${earlierSession}`);
    expect(textOf(resumed)).toContain('billing tables');
    const continued = dataOf<Stored>(await second.call('memory_retain', { content: 'Billing migration finished.' }));
    expect(continued.memory.sessionId).toBe(earlierSession);
    const current = await second.call('memory_list', { session_id: 'current' });
    expect(textOf(current)).toContain('Billing migration finished');
    expect(textOf(current)).toContain('billing tables');

    // An id never used: resume starts a session of that id (a client may name its runs).
    const unknown = await second.call('memory_resume_session', { session_id: 'session_abc123' });
    expect(unknown.isError).toBeFalsy();
    expect(textOf(unknown)).toContain('No session session_abc123 yet: started it');
    const named = dataOf<Stored>(await second.call('memory_retain', { content: 'A note of the named run.' }));
    expect(named.memory.sessionId).toBe('session_abc123');
  });

  it('keeps to the scope it was started with', async () => {
    const home = tempDir('memoir-mcp-');
    const ana = await start(home, ['--user', 'ana']);
    dataOf(await ana.call('memory_retain', { content: 'Ana keeps her passport in the blue drawer.' }));
    await ana.close();
    const ben = await start(home, ['--user', 'ben']);
    expect(textOf(await ben.call('memory_recall', { query: 'passport drawer', format: 'list' }))).toContain(
      'No memories match',
    );
    expect(dataOf<{ memories: number }>(await ben.call('memory_stats')).memories).toBe(0);
    const anaAgain = await start(home, ['--user', 'ana']);
    expect(textOf(await anaAgain.call('memory_recall', { query: 'passport drawer', format: 'list' }))).toContain(
      'blue drawer',
    );
  });

  it('backs up, exports, clears and restores; destructive tools refuse without confirm', async () => {
    const home = tempDir('memoir-mcp-');
    const server = await start(home);
    for (const content of ['Peter prefers tea.', 'Peter lives in Lisbon.', 'The staging deploy is on Fridays.']) {
      dataOf(await server.call('memory_retain', { content }));
    }
    const backup = dataOf<{ path: string; file: string; counts: { memories: number } }>(
      await server.call('memory_backup', { name: 'before_experiment' }),
    );
    expect(backup.path).toContain('before_experiment');
    expect(backup.counts.memories).toBe(3);
    expect(existsSync(backup.path)).toBe(true);

    const exportPath = join(home, 'exports', 'memories.jsonl');
    const exported = dataOf<{ memories: number; path: string }>(
      await server.call('memory_export', { format: 'jsonl', name: 'memories' }),
    );
    expect(exported.memories).toBe(3);
    expect(exported.path).toBe(exportPath);
    const lines = readFileSync(exportPath, 'utf8').trim().split('\n');
    expect(lines.filter((line) => line.includes('"type":"memory"'))).toHaveLength(3);
    const jsonPath = join(home, 'exports', 'memories.json');
    dataOf(await server.call('memory_export', { format: 'json', name: 'memories.json' }));
    expect((JSON.parse(readFileSync(jsonPath, 'utf8')) as unknown[]).length).toBe(lines.length);

    const refused = await server.call('memory_clear_all', {});
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^memory_clear_all: confirm: expected true/);
    expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(3);

    const cleared = dataOf<{ deleted: { memories: number } }>(await server.call('memory_clear_all', { confirm: true }));
    expect(cleared.deleted.memories).toBe(3);
    expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(0);

    const notConfirmed = await server.call('memory_restore', { backup: backup.file });
    expect(notConfirmed.isError).toBe(true);
    expect(textOf(notConfirmed)).toContain('confirm');
    const restored = await server.call('memory_restore', { backup: backup.file, confirm: true });
    expect(textOf(restored)).toContain('Restored 3 memories');
    const stats = await server.call('memory_stats');
    expect(textOf(stats)).toMatch(/^3 memories/);

    const session = dataOf<{ current: string }>(await server.call('memory_list_sessions')).current;
    const deleteRefused = await server.call('memory_delete_session', { session_id: session });
    expect(deleteRefused.isError).toBe(true);
    const deleted = dataOf<{ deleted: number }>(
      await server.call('memory_delete_session', { session_id: session, confirm: true }),
    );
    expect(deleted.deleted).toBe(3);
  });

  it('learns, finds and tracks procedures, and reflects into a workspace', async () => {
    const home = tempDir('memoir-mcp-');
    const workspace = tempDir('memoir-mcp-workspace-');
    const server = await start(home, ['--workspace', workspace]);
    const learned = await server.call('memory_learn_procedure', {
      request: 'Publish the weekly release notes',
      tool_calls: ['git_log', { name: 'write_file', input: { path: 'NOTES.md' } }, 'slack_post'],
      response: 'Release notes posted.',
    });
    expect(dataOf<{ scheduled: boolean }>(learned).scheduled).toBe(true);
    const procedures = await eventually(
      async () =>
        dataOf<{ procedures: Array<{ id: string; successCount: number }> }>(await server.call('memory_list_procedures'))
          .procedures,
      (list) => list.length === 1,
    );
    const found = await server.call('memory_find_procedures', { request: 'publish the weekly release notes' });
    expect(textOf(found)).toContain(procedures[0]!.id);
    const used = await server.call('memory_record_procedure_use', { procedure_id: procedures[0]!.id, success: true });
    const after = dataOf<{ procedure: { successCount: number } }>(used).procedure.successCount;
    expect(after).toBe(procedures[0]!.successCount + 1);
    expect(textOf(used)).toContain(`Recorded a success for ${procedures[0]!.id}`);

    const reflected = await server.call('memory_reflect', { since: '7d' });
    expect(reflected.isError).toBeFalsy();
    expect(textOf(reflected)).toMatch(/since \d{4}-\d\d-\d\d/);
  });

  it('refuses flag combinations that mean nothing, with exit code 2', async () => {
    const run = promisify(execFile);
    const env = childEnvironment({ MEMOIR_HOME: tempDir('memoir-mcp-') });
    for (const [args, message] of [
      [['--wrap'], '--wrap needs the command of an MCP server'],
      [['--capture'], 'apply to a wrapped server'],
      [['--port', '8080'], 'apply to HTTP serving'],
      [['node', 'server.js'], 'unexpected argument "node"'],
    ] as const) {
      const failed = await run(process.execPath, [bin, 'mcp', ...args], { env, encoding: 'utf8' }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect('code' in failed ? failed.code : 0).toBe(2);
      expect(failed.stderr).toContain(message);
    }
  });

  it('answers bad input with a tool error naming the field, and keeps serving after a failing store', async () => {
    const home = tempDir('memoir-mcp-');
    const server = await start(home);
    const empty = await server.call('memory_retain', { content: '' });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toMatch(/^memory_retain: content: expected a non-empty string/);
    expect(textOf(empty)).toContain('call memory_retain again');
    const wrongType = await server.call('memory_retain', { content: 'x', metadata: 'high' });
    expect(textOf(wrongType)).toMatch(/metadata/);
    const unknownField = await server.call('memory_recall', { query: 'x', limit: 3, format: 'list' });
    expect(textOf(unknownField)).toMatch(/limit/);
    const badTime = await server.call('memory_recall', {
      query: 'x',
      filters: { since: 'the other day' },
      format: 'list',
    });
    expect(badTime.isError).toBe(true);
    expect(textOf(badTime)).toMatch(/since/);
    await expect(server.call('memory_nonexistent', {})).rejects.toThrow(/memory_nonexistent/);

    // Another process holds the write lock past the store's busy timeout: the store fails.
    const database = new Database(join(home, 'memoir.sqlite'));
    database.exec('BEGIN EXCLUSIVE');
    let failed: Awaited<ReturnType<McpConnection['call']>>;
    try {
      failed = await server.call('memory_retain', { content: 'Written while the database is locked.' });
    } finally {
      database.exec('ROLLBACK');
      database.close();
    }
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/lock|busy/i);

    const after = dataOf<Stored>(
      await server.call('memory_retain', { content: 'Written after the lock was released.' }),
    );
    expect(after.stored).toBe(true);
    expect(dataOf<{ memories: number }>(await server.call('memory_stats')).memories).toBe(1);
  });
});
