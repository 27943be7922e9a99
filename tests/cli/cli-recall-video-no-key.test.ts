import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';

// `memoir recall-video` with no MEMORIES_AI_API_KEY, through the real executable in a child
// process: as at the other doors, there is nothing to search and nothing cached, and the hint
// names the variable to set — in the CLI's terms, not the library's ("Pass apiKey",
// "createMemory({ video })").

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');

function environment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && !key.startsWith('MEMORIES_AI')) env[key] = value;
  }
  return { ...env, MEMOIR_HOME: home };
}

async function memoir(home: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: environment(home),
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('memoir recall-video without a Memories AI key', { timeout: 60_000 }, () => {
  it('fails naming MEMORIES_AI_API_KEY as the thing to set', async () => {
    const result = await memoir(tempDir('memoir-cli-recall-video-'), 'recall-video', 'add an SSH key on GitHub');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*no video provider/m);
    expect(result.stderr).toMatch(
      /^hint: Set MEMORIES_AI_API_KEY \(a Memories AI key\) so your screen recordings can be searched/m,
    );
    expect(result.stderr).not.toMatch(/createMemory|Pass apiKey/);
  });
});
