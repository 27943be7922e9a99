import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';

// The real executable in a child process: the bin script, tsx or the build, the SQLite
// file under MEMOIR_HOME surviving between processes, and the exit code reaching the shell.

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');
const home = tempDir('memoir-cli-process-');

function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && key !== 'MEMORY_STORAGE_PATH') env[key] = value;
  }
  return { ...env, MEMOIR_HOME: home };
}

async function memoir(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: environment(), encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('memoir executable', () => {
  it('retains in one process and recalls in the next, offline, with no API key', async () => {
    const retained = await memoir(
      'retain',
      'Peter prefers concise replies on WhatsApp.',
      '--entity',
      'Peter',
      '--source-file',
      'memory/2025-11-20.md',
      '--source-line',
      '4',
    );
    expect(retained.stderr).toBe('');
    expect(retained.code).toBe(0);

    const recalled = await memoir('recall', 'how should I reply to Peter', '--json');
    expect(recalled.code).toBe(0);
    expect(recalled.stderr).toBe('');
    const response = JSON.parse(recalled.stdout) as {
      results: Array<{ citation: string; memory: { content: string } }>;
    };
    expect(response.results[0]!.memory.content).toBe('Peter prefers concise replies on WhatsApp.');
    expect(response.results[0]!.citation).toBe('memory/2025-11-20.md#L4');

    const missing = await memoir('get', 'mem_missing');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*\nhint: .*\n$/);
    expect((await memoir('recall', 'x', '--k', 'abc')).code).toBe(2);
  });
});
