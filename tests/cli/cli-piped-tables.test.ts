import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';

// `memoir backup --list` and `memoir history` piped (the real executable in a child process,
// stdout a pipe): a script or grep reads the table, so no path, content or reason is cut to
// a terminal's width.

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');

function environment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && key !== 'MEMORY_STORAGE_PATH') env[key] = value;
  }
  return { ...env, MEMOIR_HOME: home, COLUMNS: '80' };
}

async function memoir(home: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [bin, ...args], { env: environment(home), encoding: 'utf8' });
  return stdout;
}

// A home whose paths run well past any table width.
function longHome(): string {
  const home = join(tempDir('memoir-cli-piped-'), 'a-rather-long-home-directory-name-so-that-paths-run-past-the-width');
  mkdirSync(home, { recursive: true });
  return home;
}

describe('tables piped to another program', { timeout: 90_000 }, () => {
  it('backup --list prints every path whole', async () => {
    const home = longHome();
    const made = JSON.parse(await memoir(home, '--json', 'backup', 'nightly-before-the-billing-migration')) as {
      path: string;
    };
    expect(made.path.length).toBeGreaterThan(120);
    const listed = await memoir(home, 'backup', '--list');
    expect(listed).toContain(made.path);
    expect(listed).not.toContain('…');
  });

  it('history prints contents and reasons whole', async () => {
    const home = longHome();
    const idOf = (json: string) => (JSON.parse(json) as { memories: Array<{ id: string }> }).memories[0]!.id;
    const content = 'Peter lives in Berlin, in a flat on the third floor of an old building near the river.';
    const berlin = idOf(
      await memoir(home, '--json', 'retain', content, '--entity', 'Peter', '--occurred-at', '2023-03-01'),
    );
    const vienna = idOf(
      await memoir(
        home,
        '--json',
        'retain',
        'Peter lives in Vienna now.',
        '--entity',
        'Peter',
        '--occurred-at',
        '2024-03-01',
      ),
    );
    const reason = 'he moved again in the spring, to Lisbon, as he told us in the long call about the offsite planning';
    await memoir(home, 'invalidate', vienna, '--reason', reason);
    const history = await memoir(home, 'history', berlin);
    expect(history).toContain(content);
    expect(history).toContain(reason);
    expect(history).toContain(`superseded by ${vienna}`);
    expect(history).not.toContain('…');
  });
});
