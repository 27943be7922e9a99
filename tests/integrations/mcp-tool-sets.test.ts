import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { agentTools } from '../../src/integrations/agent-tools.js';
import { tempDir } from '../helpers/stores.js';
import { bin, childEnvironment, connectMemoirMcp, type McpConnection } from './mcp-harness.js';

// `memoir mcp --tools`: a host sends every listed tool's definition to its model on each turn,
// so the default serves the core set only; the rest is asked for by set. The real server in a
// child process, listed by the official client.

const CORE = [
  'memory_retain',
  'memory_recall',
  'memory_get',
  'memory_forget',
  'memory_start_session',
  'memory_resume_session',
  'memory_list_sessions',
];
const WORKSPACE = [
  'memory_reflect',
  'memory_core_read',
  'memory_core_append',
  'memory_core_replace',
  'memory_core_insert',
];

const open: McpConnection[] = [];
async function start(options: Parameters<typeof connectMemoirMcp>[0]): Promise<McpConnection> {
  const connection = await connectMemoirMcp(options);
  open.push(connection);
  return connection;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

const names = async (server: McpConnection) => (await server.client.listTools()).tools.map((tool) => tool.name);

describe('memoir mcp tool sets', { timeout: 90_000 }, () => {
  it('serves only the core tools by default, in a small fraction of the bytes of all of them', async () => {
    const server = await start({ home: tempDir('memoir-mcp-sets-') });
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...CORE].sort());
    const bytes = Buffer.byteLength(JSON.stringify(tools));
    const all = await start({ home: tempDir('memoir-mcp-sets-'), tools: 'all' });
    const allBytes = Buffer.byteLength(JSON.stringify((await all.client.listTools()).tools));
    // The figure in docs/guides/mcp.md; a core tool that grows a lot should be noticed there.
    expect(bytes).toBeLessThan(12_000);
    expect(bytes * 2.5).toBeLessThan(allBytes);
    // The core tools still work: a stored memory is found.
    const stored = await server.call('memory_retain', { content: 'The deploy runs from the release branch.' });
    expect(stored.isError).toBeFalsy();
    const found = await server.call('memory_recall', { query: 'deploy branch', format: 'list' });
    expect(JSON.stringify(found.structuredContent)).toContain('release branch');
    // A tool of another set is not served.
    await expect(server.call('memory_clear_all', { confirm: true })).rejects.toThrow(/memory_clear_all/);
  });

  it('serves every tool with --tools all, and the union of the sets a list names', async () => {
    const all = await start({ home: tempDir('memoir-mcp-sets-'), tools: 'all' });
    expect(await names(all)).toEqual(agentTools.map((tool) => tool.name));
    const some = await start({ home: tempDir('memoir-mcp-sets-'), tools: 'Core, procedures' });
    const listed = await names(some);
    expect(listed).toEqual(expect.arrayContaining([...CORE, 'memory_find_procedures', 'memory_learn_procedure']));
    expect(listed).not.toContain('memory_backup');
    expect(listed).not.toContain('memory_core_read');
    const admin = await start({ home: tempDir('memoir-mcp-sets-'), tools: 'admin' });
    expect(await names(admin)).toEqual(expect.arrayContaining(['memory_backup', 'memory_export', 'memory_history']));
    expect(await names(admin)).not.toContain('memory_retain');
  });

  it('adds the workspace set to the default with --workspace, and reads the mcpTools setting', async () => {
    const workspace = tempDir('memoir-mcp-sets-ws-');
    mkdirSync(join(workspace, 'memory'), { recursive: true });
    const withWorkspace = await start({
      home: tempDir('memoir-mcp-sets-'),
      args: ['--workspace', workspace, '--no-watch', '--reflect-every', 'off'],
    });
    expect((await names(withWorkspace)).sort()).toEqual([...CORE, ...WORKSPACE].sort());

    const home = tempDir('memoir-mcp-sets-');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpTools: 'workspace' }));
    const configured = await start({ home });
    expect((await names(configured)).sort()).toEqual([...WORKSPACE].sort());
    // The flag wins over the config file.
    const flagged = await start({ home, tools: 'core' });
    expect((await names(flagged)).sort()).toEqual([...CORE].sort());
  });

  it('refuses an unknown set, from the flag or the environment, naming the choices', async () => {
    const run = promisify(execFile);
    const home = tempDir('memoir-mcp-sets-');
    const failed = await run(process.execPath, [bin, 'mcp', '--tools', 'core,everything'], {
      env: childEnvironment({ MEMOIR_HOME: home }),
      encoding: 'utf8',
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed ? failed.code : 0).toBe(2);
    expect(failed.stderr).toContain('unknown tool set "everything"');
    expect(failed.stderr).toContain('core, workspace, procedures, admin or all');

    const fromEnv = await run(process.execPath, [bin, 'mcp'], {
      env: childEnvironment({ MEMOIR_HOME: home, MEMOIR_MCP_TOOLS: 'cor' }),
      encoding: 'utf8',
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in fromEnv ? fromEnv.code : 0).not.toBe(0);
    expect(fromEnv.stderr).toContain('MEMOIR_MCP_TOOLS');

    const contradiction = await run(process.execPath, [bin, 'mcp', '--tools', 'all', '--no-memory-tools'], {
      env: childEnvironment({ MEMOIR_HOME: home }),
      encoding: 'utf8',
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in contradiction ? contradiction.code : 0).toBe(2);
    expect(contradiction.stderr).toContain('--tools and --no-memory-tools');
  });
});
