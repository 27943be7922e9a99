import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, settingsInEffect } from '../../src/config/load-config.js';
import { DEFAULT_CONFIG, memoirConfigSchema } from '../../src/config/memoir-config.js';
import { SETTING_NAMES, specOf } from '../../src/config/setting-registry.js';
import { tempDir } from '../helpers/stores.js';
import { runMemoir } from '../integrations/mcp-harness.js';

// The settings the doors used to read from the environment themselves (scope, vision model,
// the MCP token, the store) are registry rows: one merge, one check, one list of sources.

const TOKEN = 'a-long-random-token-0123456789';

function load(env: Record<string, string>, file?: Record<string, unknown>) {
  const home = tempDir('memoir-door-settings-');
  if (file) writeFileSync(join(home, 'config.json'), JSON.stringify(file));
  return { home, loaded: loadConfig({ env: { MEMOIR_HOME: home, ...env } }) };
}

describe('the settings of the doors', () => {
  it('are the registry: the config schema has one field per row, and nothing else', () => {
    expect(Object.keys(memoirConfigSchema.shape)).toEqual(SETTING_NAMES);
    for (const setting of SETTING_NAMES) expect(DEFAULT_CONFIG[setting]).toEqual(specOf(setting).default);
    expect(DEFAULT_CONFIG).toMatchObject({ store: 'sqlite', userId: null, visionModel: null, mcpToken: null });
  });

  it('read the scope, the vision model and the store from the environment, the file below it', () => {
    const { loaded } = load(
      { MEMOIR_USER_ID: ' alice ', MEMOIR_VISION_MODEL: 'gpt-4o-mini', MEMOIR_STORE: 'LanceDB' },
      { userId: 'bob', namespace: 'home', visionBaseUrl: 'http://127.0.0.1:11434/v1' },
    );
    expect(loaded.config).toMatchObject({
      userId: 'alice',
      namespace: 'home',
      agentId: null,
      visionModel: 'gpt-4o-mini',
      visionBaseUrl: 'http://127.0.0.1:11434/v1',
      store: 'lancedb',
    });
    expect(loaded.sources.userId).toEqual({ kind: 'env', variable: 'MEMOIR_USER_ID' });
    expect(loaded.sources.namespace.kind).toBe('file');
  });

  it('keep the MCP token out of the config file and out of every printed list', () => {
    const { loaded } = load({ MEMOIR_MCP_TOKEN: TOKEN });
    expect(loaded.config.mcpToken).toBe(TOKEN);
    const line = settingsInEffect(loaded).find((each) => each.setting === 'mcpToken')!;
    expect(line.text).toBe('mcpToken = "***" (env MEMOIR_MCP_TOKEN)');
    expect(JSON.stringify(settingsInEffect(loaded))).not.toContain(TOKEN);

    expect(() => load({}, { mcpToken: TOKEN })).toThrow(
      /"mcpToken" in file .* is a secret, read from MEMOIR_MCP_TOKEN only/,
    );
    try {
      load({ MEMOIR_MCP_TOKEN: 'short-secret' });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'CONFIG_INVALID', field: 'mcpToken' });
      expect((error as Error).message).not.toContain('short-secret');
    }
  });

  it('give the memoir command its scope: flag over environment over file', async () => {
    const home = tempDir('memoir-door-scope-');
    for (const [user, content] of [
      ['alice', 'Alice waters the ferns on Tuesdays.'],
      ['bob', 'Bob waters the cactus once a month.'],
    ] as const) {
      expect((await runMemoir(home, '--user', user, 'retain', content)).code).toBe(0);
    }
    const contents = async (where: Parameters<typeof runMemoir>[0], ...args: string[]) => {
      const run = await runMemoir(where, ...args, 'recall', 'who waters which plant', '--json');
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { results: Array<{ memory: { content: string } }> }).results.map(
        (result) => result.memory.content,
      );
    };
    writeFileSync(join(home, 'config.json'), JSON.stringify({ userId: 'bob' }));
    expect(await contents(home)).toEqual(['Bob waters the cactus once a month.']);
    expect(await contents({ home, env: { MEMOIR_USER_ID: 'alice' } })).toEqual(['Alice waters the ferns on Tuesdays.']);
    expect(await contents(home, '--user', 'alice')).toEqual(['Alice waters the ferns on Tuesdays.']);
    const bad = await runMemoir(home, '--json', '--user', '   ', 'stats');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('userId must be');
  }, 90_000);
});
