import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultClientFactory } from '../../src/cli/cli-context.js';
import { type CliIo, runCli } from '../../src/cli/index.js';
import { memoryOptionsFromConfig, withConfiguredOptions } from '../../src/config/config-options.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { MemoirConfig } from '../../src/config/memoir-config.js';
import { SETTINGS } from '../../src/config/setting-registry.js';
import { createMemory, type MemoryOptions } from '../../src/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { tempDir } from '../helpers/stores.js';

// One setting reaches the client the same way from a `memoir` flag, a MEMOIR_* variable and
// config.json, and the sources rank: option (or flag) > environment > file > default.

const root = tempDir('memoir-settings-');
let count = 0;
/** A fresh home, with a config.json when `file` is given. */
function home(file?: Record<string, unknown>): string {
  const dir = join(root, `home-${++count}`);
  mkdirSync(dir);
  if (file) writeFileSync(join(dir, 'config.json'), JSON.stringify(file));
  return dir;
}

/** Run `memoir`, keeping the settings the client was built from. */
async function memoir(argv: string[], env: Record<string, string>) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const seen: MemoirConfig[] = [];
  const io: CliIo = {
    stdout,
    stderr,
    env,
    createClient: (options) => {
      seen.push(options.config);
      return defaultClientFactory(options);
    },
  };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text, config: seen[0] };
}

/** Reach into options by a dotted path (`procedures.minToolCalls`). */
function at(options: MemoryOptions, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], options);
}

// setting, its text in a flag or a variable, the value it becomes.
const CASES = [
  ['retentionDays', '7', 7],
  ['maxSizeMb', '1.5', 1.5],
  ['maxMemories', '1000', 1000],
  ['recallK', '4', 4],
  ['captureEnabled', 'true', true],
  ['proceduresMinToolCalls', '5', 5],
  ['proceduresSimilarityThreshold', '0.4', 0.4],
] as const;

describe('one setting, three sources, the same option', () => {
  it.each(CASES)('%s', async (setting, text, value) => {
    const spec = SETTINGS[setting];
    const option = spec.option;
    expect(option, `${setting} names a createMemory option`).toBeDefined();
    const section = spec.section;

    const fromFile = await memoir(['stats', '--json'], { MEMOIR_HOME: home({ [setting]: value }) });
    const fromEnv = await memoir(['stats', '--json'], { MEMOIR_HOME: home(), [spec.env]: text });
    const runs = [fromFile, fromEnv];
    if (spec.flag) runs.push(await memoir([spec.flag, text, 'stats', '--json'], { MEMOIR_HOME: home() }));
    // The seed's section form of the file (`"procedures": { "min_tool_calls": 5 }`) too.
    if (section) {
      const snake = section.key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      runs.push(await memoir(['stats', '--json'], { MEMOIR_HOME: home({ [section.name]: { [snake]: value } }) }));
    }
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.config?.[setting]).toEqual(value);
      expect(at(memoryOptionsFromConfig(run.config as MemoirConfig), option as string)).toEqual(value);
    }
    // And the zero-configuration createMemory() path turns the same settings into the same option.
    const config = loadConfig({ env: { MEMOIR_HOME: home(), [spec.env]: text } }).config;
    expect(at(withConfiguredOptions({}, config), option as string)).toEqual(value);
  });

  it('a bad flag value is refused in the words of its variable, with exit code 2', async () => {
    const run = await memoir(['--retention-days', 'thirty', 'stats'], { MEMOIR_HOME: home() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--retention-days');
    expect(run.stderr).toContain(SETTINGS.retentionDays.expects);
  });
});

// Every combination of sources for maxSizeMb, observed where a user sees it: the quota `stats` reports.
const LAYERS = [
  { flag: false, env: false, file: false, expected: SETTINGS.maxSizeMb.default },
  { flag: false, env: false, file: true, expected: 1 },
  { flag: false, env: true, file: false, expected: 2 },
  { flag: false, env: true, file: true, expected: 2 },
  { flag: true, env: false, file: false, expected: 3 },
  { flag: true, env: false, file: true, expected: 3 },
  { flag: true, env: true, file: false, expected: 3 },
  { flag: true, env: true, file: true, expected: 3 },
];

describe('precedence: flag or option > environment > config file > default', () => {
  it.each(LAYERS)('memoir: flag $flag, env $env, file $file → $expected MB', async ({ flag, env, file, expected }) => {
    const argv = [...(flag ? ['--max-size-mb', '3'] : []), 'stats', '--json'];
    const run = await memoir(argv, {
      MEMOIR_HOME: home(file ? { maxSizeMb: 1 } : undefined),
      ...(env ? { MEMOIR_MAX_SIZE_MB: '2' } : {}),
    });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { quota: { maxSizeMb: number } }).quota.maxSizeMb).toBe(expected);
  });

  describe('createMemory()', () => {
    const saved = { ...process.env };
    afterEach(() => {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    });

    it.each(LAYERS)('option $flag, env $env, file $file → $expected MB', async ({ flag, env, file, expected }) => {
      for (const key of Object.keys(process.env)) if (key.startsWith('MEMOIR_')) delete process.env[key];
      process.env.MEMOIR_HOME = home(file ? { maxSizeMb: 1 } : undefined);
      if (env) process.env.MEMOIR_MAX_SIZE_MB = '2';
      const memory = createMemory(flag ? { maxSizeMb: 3 } : undefined);
      try {
        expect((await memory.stats()).quota.maxSizeMb).toBe(expected);
      } finally {
        await memory.close();
      }
    });
  });
});
