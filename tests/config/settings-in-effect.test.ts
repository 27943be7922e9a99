import { describe, expect, it } from 'vitest';
import { loadConfig, settingsInEffect } from '../../src/index.js';
import { tempDir } from '../helpers/stores.js';

// What `memoir doctor` and `--debug` print: every setting, its value and its source in words,
// with no secret in it (a URL's user name and password are hidden).

describe('settingsInEffect', () => {
  it('lists every setting with its source, and hides a URL’s credentials', () => {
    const home = tempDir('memoir-settings-in-effect-');
    const loaded = loadConfig({
      env: { MEMOIR_HOME: home, MEMOIR_EMBEDDER_BASE_URL: 'https://me:s3cret@llm.example/v1' },
      flags: { retentionDays: 9 },
    });
    const byName = Object.fromEntries(settingsInEffect(loaded).map((each) => [each.setting, each]));
    expect(Object.keys(byName)).toEqual(Object.keys(loaded.sources));
    expect(byName.retentionDays!.text).toBe('retentionDays = 9 (flag --retention-days)');
    expect(byName.recallK!.text).toBe('recallK = 10 (default)');
    expect(byName.embedderBaseUrl!.text).toBe(
      'embedderBaseUrl = "https://***:***@llm.example/v1" (env MEMOIR_EMBEDDER_BASE_URL)',
    );
    expect(JSON.stringify(settingsInEffect(loaded))).not.toContain('s3cret');
  });
});
