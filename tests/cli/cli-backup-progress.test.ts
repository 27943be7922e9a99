import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { tempDir } from '../helpers/stores.js';

// `memoir backup` and `memoir restore` of a large store take seconds: on a terminal they draw
// a bar on stderr as export and import do; piped, they print only their summary. The real
// executable in a child process, on a terminal (a pseudo-terminal from `script`) and piped.

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');

function environment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && key !== 'MEMORY_STORAGE_PATH') env[key] = value;
  }
  return { ...env, MEMOIR_HOME: home };
}

const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

/** Run memoir on a pseudo-terminal: what it wrote there (stdout and stderr together). */
async function onTerminal(home: string, ...args: string[]): Promise<string> {
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  const { stdout } = await run('script', ['-qec', command, '/dev/null'], { env: environment(home), encoding: 'utf8' });
  return stdout;
}

describe('backup and restore progress', { timeout: 180_000 }, () => {
  it('draws a bar for each on a terminal, and nothing but the summary when piped', async () => {
    const home = tempDir('memoir-cli-backup-progress-');
    const client = createMemory({ home });
    await client.retain(Array.from({ length: 1200 }, (_, index) => `Fact number ${index} about the castle.`));
    await client.close();

    const backup = await onTerminal(home, 'backup', 'big');
    expect(backup).toMatch(/backing up .*100% 1200\/1200/);
    expect(backup).toMatch(/Backed up 1200 memories/);
    const path = /to (\S+\.tar\.gz)/.exec(backup)?.[1];
    expect(path).toBeDefined();

    const restore = await onTerminal(home, 'restore', path!, '--confirm');
    expect(restore).toMatch(/checking .*100% 1200\/1200/);
    expect(restore).toMatch(/backing up .*100% 1200\/1200/);
    expect(restore).toMatch(/restoring .*100% 1200\/1200/);
    expect(restore).toMatch(/Restored 1200 memories/);

    const piped = await run(process.execPath, [bin, 'backup', 'piped'], { env: environment(home), encoding: 'utf8' });
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toMatch(/^Backed up 1200 memories/);
  });
});
