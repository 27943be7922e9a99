import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';

// `memoir recall --workspace <dir> --since 30d` in a child process (the real clock): the lines
// of pages without a date (memory.md, bank/*.md) are in no time window, however recently the
// files were written, yet a recall without a window finds them; a line of such a page that
// states its own date keeps it. Fails when a page is dated by its modification time, as every
// one of these files was written a moment ago.

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function environment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && key !== 'MEMORY_STORAGE_PATH') env[key] = value;
  }
  return { ...env, MEMOIR_HOME: home };
}

async function memoir(home: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, [bin, ...args], { env: environment(home), encoding: 'utf8' });
  return stdout;
}

describe('memoir recall --workspace: undated pages and time filters', () => {
  it('--since 30d leaves out undated page lines and keeps dated ones; without a window they are recalled', async () => {
    const home = tempDir('memoir-cli-undated-home-');
    const root = join(tempDir('memoir-cli-undated-'), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    mkdirSync(join(root, 'bank'), { recursive: true });
    const now = Date.now();
    writeFileSync(join(root, 'memory.md'), '# Core\n\n- W @Peter: Peter keeps the spare keys in the blue drawer.\n');
    writeFileSync(
      join(root, 'bank', 'world.md'),
      `# World\n\n- W @Peter: Peter drives a red Volvo.\n- W @Peter: On ${isoDay(now - 10 * DAY)} Peter sold his green bike.\n`,
    );
    writeFileSync(
      join(root, 'memory', `${isoDay(now - 5 * DAY)}.md`),
      '# Log\n\n## Retain\n\n- W @Peter: Peter painted the garden fence white.\n',
    );

    const windowed = JSON.parse(
      await memoir(home, 'recall', 'Peter', '--workspace', root, '--since', '30d', '-k', '10', '--json'),
    ) as { results: Array<{ memory: { content: string } }> };
    const inWindow = windowed.results.map((result) => result.memory.content).join('\n');
    expect(inWindow).toContain('garden fence');
    expect(inWindow).toContain('green bike');
    expect(inWindow).not.toContain('blue drawer');
    expect(inWindow).not.toContain('red Volvo');

    const unbounded = JSON.parse(
      await memoir(home, 'recall', 'where', 'are', 'the', 'spare', 'keys', '--workspace', root, '--json'),
    ) as { results: Array<{ citation: string; memory: { content: string } }> };
    expect(unbounded.results[0]!.citation).toBe('memory.md#L3');
  }, 60_000);
});
