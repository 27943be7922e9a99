import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/memoir-config.js';
import { SETTING_NAMES, SETTINGS } from '../../src/config/setting-registry.js';
import { openClawConfigSchema, parseOpenClawConfig } from '../../src/integrations/openclaw/openclaw-config.js';

// The plugin's keys that are memoir settings take the setting's schema and default from the
// registry, and docs/guides/openclaw.md maps every key to its row (or says it has none).

const guide = readFileSync(join(import.meta.dirname, '../../docs/guides/openclaw.md'), 'utf8');
const mapping = guide.slice(guide.indexOf("### The plugin's keys"));
const rows = mapping
  .slice(0, mapping.indexOf('\n## '))
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| /, '')));

/** Every key of the plugin's config, dotted, down one level of sections. */
function configKeys(): string[] {
  const keys: string[] = [];
  for (const [key, field] of Object.entries(openClawConfigSchema.shape)) {
    let inner: unknown = field;
    while (inner && typeof inner === 'object' && 'unwrap' in inner && typeof inner.unwrap === 'function') {
      inner = (inner as { unwrap(): unknown }).unwrap();
    }
    const shape = (inner as { shape?: Record<string, unknown> }).shape;
    if (shape && key !== 'video') keys.push(...Object.keys(shape).map((child) => `${key}.${child}`));
    else if (shape) {
      for (const child of Object.keys(shape)) {
        if (child === 'vision') keys.push('video.vision.model', 'video.vision.baseUrl');
        else keys.push(`video.${child}`);
      }
    } else keys.push(key);
  }
  return keys;
}

describe('the OpenClaw config and the settings registry', () => {
  it('takes the shared settings’ defaults and bounds from the registry', () => {
    const config = parseOpenClawConfig({});
    expect(config.store).toBe(DEFAULT_CONFIG.store);
    expect(config.procedures).toMatchObject({
      learn: DEFAULT_CONFIG.proceduresEnabled,
      minToolCalls: DEFAULT_CONFIG.proceduresMinToolCalls,
      maxPerPrompt: DEFAULT_CONFIG.proceduresMaxPerPrompt,
    });
    expect(parseOpenClawConfig({ store: 'lancedb' }).store).toBe('lancedb');
    expect(() => parseOpenClawConfig({ store: 'memory' })).toThrow(/store/);
    // The registry's bounds, not a second copy: what proceduresMaxPerPrompt accepts, the plugin accepts.
    const most = SETTINGS.proceduresMaxPerPrompt.schema.maxValue ?? 0;
    expect(parseOpenClawConfig({ procedures: { maxPerPrompt: most } }).procedures.maxPerPrompt).toBe(most);
    expect(() => parseOpenClawConfig({ procedures: { maxPerPrompt: most + 1 } })).toThrow(/maxPerPrompt/);
    expect(() => parseOpenClawConfig({ embedding: { dimensions: 0 } })).toThrow(/dimensions/);
    expect(() => parseOpenClawConfig({ llm: { model: 'x'.repeat(257) } })).toThrow(/model/);
  });

  it('docs/guides/openclaw.md maps every key to a registry row that exists, or to none', () => {
    expect(rows.length).toBeGreaterThan(10);
    const mapped = new Set<string>();
    for (const [keys = '', setting = ''] of rows) {
      for (const key of keys.matchAll(/`([^`]+)`/g)) mapped.add(key[1]!);
      if (setting !== '—') expect(SETTING_NAMES, setting).toContain(setting.replace(/`/g, ''));
    }
    expect(configKeys().filter((key) => !mapped.has(key))).toEqual([]);
  });
});
