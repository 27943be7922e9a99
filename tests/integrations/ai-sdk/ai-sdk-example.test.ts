import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { childEnvironment, root } from '../../package/packed-package.js';

// `npm run example:ai-sdk` runs offline, in its own process, as a user would run it: the model
// learns a fact through memory_retain, and the next turn's answer depends on the recalled memory.

const exec = promisify(execFile);

describe('examples/ai-sdk-chat.ts', () => {
  it('runs offline and the second turn answers from memory', async () => {
    const { stdout, stderr } = await exec(
      process.execPath,
      [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'examples/ai-sdk-chat.ts')],
      { cwd: root, env: childEnvironment({ OPENAI_API_KEY: '' }), encoding: 'utf8' },
    );
    expect(stderr).toBe('');
    expect(stdout).toContain('tool: memory_retain');
    expect(stdout).toContain('Try Da Terra in Porto');
    expect(stdout).toContain('Lentil soup');
    expect(stdout).toMatch(/untrusted historical data/);
    expect(stdout).toContain('user: Any vegetarian dinner ideas for tonight?');
  }, 60_000);
});
