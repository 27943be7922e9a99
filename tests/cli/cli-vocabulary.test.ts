import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { createMemory } from '../../src/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// One vocabulary at the CLI (docs/vocabulary.md): `--k` sizes every ranked answer,
// `--confirm` goes ahead with what replaces data, `recall --explain` as the API's `explain`.
// The old flags (`--top-k`, `procedures from-recording --limit`, `--yes`) still work with a note on stderr;
// an old and a new flag with different values are a usage error naming both. Errors say what
// to do in flags, not in library calls.

const root = tempDir('memoir-cli-vocabulary-');
let homes = 0;

async function memoir(home: string, ...argv: string[]) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const io: CliIo = { stdout, stderr, env: { MEMOIR_HOME: home } };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

async function homeWithProcedures(): Promise<string> {
  const home = join(root, `home-${++homes}`);
  const memory = createMemory({ home, logger: { log() {} } });
  for (const what of ['web app', 'API server', 'docs site']) {
    await memory.procedures.save({
      title: `Deploy the ${what}`,
      triggerExamples: [`deploy the ${what}`],
      steps: ['go'],
    });
  }
  await memory.close();
  return home;
}

const ids = (stdout: string) =>
  (JSON.parse(stdout) as { found: Array<{ procedure: { id: string } }> }).found.map((found) => found.procedure.id);

describe('CLI vocabulary: old flags keep working, with a note', () => {
  it('procedures find takes --k; the old --top-k gives the same answer and a note naming --k', async () => {
    const home = await homeWithProcedures();
    const byK = await memoir(home, '--json', 'procedures', 'find', 'deploy', '--k', '1', '--threshold', '0');
    expect(byK.code, byK.stderr).toBe(0);
    expect(ids(byK.stdout)).toHaveLength(1);
    expect(byK.stderr).toBe('');
    const old = await memoir(home, '--json', 'procedures', 'find', 'deploy', '--top-k', '1', '--threshold', '0');
    expect(old.code, old.stderr).toBe(0);
    expect(ids(old.stdout)).toEqual(ids(byK.stdout));
    expect(old.stderr).toMatch(/note: --top-k is now --k/);
  });

  it('an old and a new flag with different values are refused (exit 2), naming both', async () => {
    const home = await homeWithProcedures();
    const both = await memoir(home, 'procedures', 'find', 'deploy', '--top-k', '1', '--k', '2');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/error: .*--top-k is the old name of --k.*\(1 and 2\)/);
    expect(both.stderr).toMatch(/hint: Pass only --k \(--top-k is its old name\)/);
    const video = await memoir(
      home,
      '--json',
      'procedures',
      'from-recording',
      'open a terminal',
      '--limit',
      '1',
      '--k',
      '3',
    );
    expect(video.code).toBe(2);
    const error = JSON.parse(video.stderr) as { error: { code: string; field: string; message: string } };
    expect(error.error.code).toBe('VALIDATION_FAILED');
    expect(error.error.field).toBe('--limit');
    expect(error.error.message).toMatch(/--limit is the old name of --k/);
  });

  it('restore goes ahead with --confirm; the old --yes still does, with a note', async () => {
    const home = join(root, `home-${++homes}`);
    expect((await memoir(home, 'retain', 'tea at four')).code).toBe(0);
    const backup = JSON.parse((await memoir(home, '--json', 'backup', 'b1')).stdout) as { path: string };
    const refused = await memoir(home, 'restore', backup.path);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/needs --confirm/);
    const confirmed = await memoir(home, 'restore', backup.path, '--confirm');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stderr).not.toMatch(/--yes/);
    const old = await memoir(home, 'restore', backup.path, '--yes');
    expect(old.code, old.stderr).toBe(0);
    expect(old.stderr).toMatch(/note: --yes is now --confirm/);
  });

  it('recall --explain says how each score was reached, as the API’s explain does', async () => {
    const home = join(root, `home-${++homes}`);
    expect((await memoir(home, 'retain', 'Peter drinks green tea at four')).code).toBe(0);
    const text = await memoir(home, 'recall', 'green tea', '--explain');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/why: .*lexical #1/);
    const json = await memoir(home, '--json', 'recall', 'green tea', '--explain');
    const response = JSON.parse(json.stdout) as { results: Array<{ explanation?: string }> };
    expect(response.results[0]!.explanation).toMatch(/lexical #1/);
  });
});

describe('CLI errors are phrased in flags, not library calls', () => {
  it('a scoped reindex says to run without --user, not to create an unscoped client', async () => {
    const home = join(root, `home-${++homes}`);
    expect((await memoir(home, '--user', 'sam', 'retain', 'tea at four')).code).toBe(0);
    const run = await memoir(home, '--user', 'sam', 'reindex');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/hint: Run it without --user, --agent and --namespace/);
    expect(run.stderr).not.toMatch(/Create the client|unscoped client|`scope`/);
    const json = await memoir(home, '--user', 'sam', '--json', 'reindex');
    const error = JSON.parse(json.stderr) as { error: { suggestion: string } };
    expect(error.error.suggestion).toMatch(/without --user/);
  });
});
