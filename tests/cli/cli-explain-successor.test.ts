import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';

// `memoir recall --explain` (the real executable, a SQLite file between runs): a fact that
// changed is asked about by its old value, and recall brings in the newer version, which no
// search list found. Its explanation says why it is there, not only that nothing found it.

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');

function environment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && key !== 'MEMORY_STORAGE_PATH') env[key] = value;
  }
  return { ...env, MEMOIR_HOME: home };
}

async function memoir(home: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [bin, ...args], { env: environment(home), encoding: 'utf8' });
  return stdout;
}

const idOf = (json: string) => (JSON.parse(json) as { memories: Array<{ id: string }> }).memories[0]!.id;

describe('recall --explain of a successor', { timeout: 90_000 }, () => {
  it('says the newer version is there as the successor of the version that matched', async () => {
    const home = tempDir('memoir-cli-explain-');
    const berlin = idOf(
      await memoir(
        home,
        '--json',
        'retain',
        'Peter lives in Berlin.',
        '--entity',
        'Peter',
        '--occurred-at',
        '2023-03-01',
      ),
    );
    const vienna = idOf(
      await memoir(
        home,
        '--json',
        'retain',
        'Peter lives in Vienna.',
        '--entity',
        'Peter',
        '--occurred-at',
        '2024-03-01',
      ),
    );
    const response = JSON.parse(await memoir(home, '--json', 'recall', 'Berlin', '--explain')) as {
      results: Array<{ memory: { id: string }; explanation: string; breakdown: { lexical: unknown; vector: unknown } }>;
    };
    const successor = response.results.find((result) => result.memory.id === vienna);
    expect(successor, 'recall brings in the current version').toBeDefined();
    // The premise: no list found it; the old version's match brought it in.
    expect(successor!.breakdown.lexical).toBeNull();
    expect(successor!.breakdown.vector).toBeNull();
    expect(successor!.explanation).toMatch(new RegExp(`^successor of ${berlin}\\b`));
    expect(successor!.explanation).not.toMatch(/^lexical: not found; vector: not found/);

    const table = await memoir(home, 'recall', 'Berlin', '--explain');
    expect(table).toContain(`why: successor of ${berlin}`);
  });
});
