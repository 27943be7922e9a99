import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { bin, childEnvironment } from '../integrations/mcp-harness.js';

// `memoir list` in a child process over a home two users filled: unscoped, it lists every
// user's memories, so each row says whose it is; scoped, the column would say the same thing
// on every row and is left out.

const run = promisify(execFile);

describe('memoir list', () => {
  it('shows whose each memory is when unscoped, and no other user when scoped', async () => {
    const home = tempDir('memoir-cli-list-');
    const env = { env: childEnvironment({ MEMOIR_HOME: home, COLUMNS: '160' }), encoding: 'utf8' as const };
    await run(process.execPath, [bin, '--user', 'peter', 'retain', 'Peter prefers concise replies.'], env);
    await run(process.execPath, [bin, '--user', 'zoe', '--agent', 'helper', 'retain', 'Zoe writes in Dutch.'], env);
    await run(process.execPath, [bin, '--agent', 'ops', 'retain', 'The deploy window is Friday.'], env);

    const unscoped = (await run(process.execPath, [bin, 'list'], env)).stdout;
    const lines = unscoped.split('\n');
    expect(lines[0]).toMatch(/\bscope\b/);
    const row = (text: string) => lines.find((line) => line.includes(text)) ?? '';
    expect(row('Peter prefers')).toMatch(/user=peter/);
    expect(row('Zoe writes')).toMatch(/user=zoe agent=helper/);
    expect(row('deploy window')).toMatch(/agent=ops/);
    expect(row('deploy window')).not.toMatch(/user=/);

    const scoped = (await run(process.execPath, [bin, '--user', 'peter', 'list'], env)).stdout;
    expect(scoped).toContain('Peter prefers concise replies.');
    expect(scoped).not.toContain('Zoe');
    expect(scoped.split('\n')[0]).not.toMatch(/\bscope\b/);
  }, 60_000);
});
