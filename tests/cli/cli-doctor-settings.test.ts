import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory } from '../../src/index.js';
import { quiet, tempDir } from '../helpers/stores.js';
import { childEnvironment } from '../integrations/mcp-harness.js';

// Seed 001's "logs configuration source for debugging": `memoir doctor` and `--debug` say each
// setting's value and where it came from (default, which file, which variable, which flag); and
// `memoir --user bob doctor` counts bob's memories only. The real executable on a SQLite file.

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');

async function memoir(home: string, env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: childEnvironment({ MEMOIR_HOME: home, ...env }),
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function seeded(): Promise<string> {
  const home = tempDir('memoir-cli-doctor-settings-');
  const memory = createMemory({
    home,
    store: createSqliteStore({ path: join(home, 'memoir.sqlite'), logger: quiet }),
    logger: quiet,
  });
  await memory.retain([
    { content: 'Bob keeps his invoices in the blue folder.', scope: { userId: 'bob' } },
    { content: 'Bob flies to Oslo on Friday.', scope: { userId: 'bob' } },
    { content: 'Alice prefers tea.', scope: { userId: 'alice' } },
    { content: 'Alice runs on Mondays.', scope: { userId: 'alice' } },
    { content: 'Alice moved to Porto.', scope: { userId: 'alice' } },
  ]);
  await memory.close();
  return home;
}

describe('memoir doctor: settings and scope', () => {
  it('a scoped doctor counts only its scope', async () => {
    const home = await seeded();
    const whole = await memoir(home, {}, 'doctor');
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toContain('5 memories');

    const bob = await memoir(home, {}, '--user', 'bob', 'doctor');
    expect(bob.code, bob.stderr).toBe(0);
    expect(bob.stdout).toContain('the scope userId=bob: 2 memories');
    expect(bob.stdout).not.toContain('5 memories');
    expect(bob.stdout).not.toMatch(/embeddings/);
    const json = JSON.parse((await memoir(home, {}, '--user', 'bob', '--json', 'doctor')).stdout) as {
      counts: unknown;
      scopeCounts: { memories: number };
    };
    expect(json.counts).toBeNull();
    expect(json.scopeCounts.memories).toBe(2);
  }, 60_000);

  it('doctor and --debug print each setting with its source: default, file, variable, flag', async () => {
    const home = await seeded();
    const file = join(home, 'config.json');
    writeFileSync(file, JSON.stringify({ retentionDays: 14, schedule: { consolidate: '04:30' } }));
    const env = { MEMOIR_RECALL_K: '7' };
    const doctor = await memoir(home, env, '--max-size-mb', '100', 'doctor');
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain(`retentionDays = 14 (file ${file})`);
    expect(doctor.stdout).toContain(`scheduleConsolidate = "04:30" (file ${file})`);
    expect(doctor.stdout).toContain('recallK = 7 (env MEMOIR_RECALL_K)');
    expect(doctor.stdout).toContain('maxSizeMb = 100 (flag --max-size-mb)');
    expect(doctor.stdout).toContain('scheduleCleanup = "0 3 * * *" (default)');
    expect(doctor.stdout).toContain(`home = "${home}" (env MEMOIR_HOME)`);

    const debug = await memoir(home, env, '--debug', '--retention-days', '3', 'stats');
    expect(debug.code, debug.stderr).toBe(0);
    expect(debug.stderr).toContain('setting retentionDays = 3 (flag --retention-days)');
    expect(debug.stderr).toContain('setting recallK = 7 (env MEMOIR_RECALL_K)');
    expect(debug.stderr).toContain('setting logLevel = "warn" (default)');
  }, 60_000);
});
