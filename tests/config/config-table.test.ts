import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { END, GUIDE, guideWithTable, renderConfigTable, START } from '../../scripts/config-table.js';
import { DEFAULT_CONFIG } from '../../src/config/memoir-config.js';
import { SETTING_NAMES, specOf } from '../../src/config/setting-registry.js';

// The settings table in docs/guides/configuration.md is written from the registry; a change to
// one without the other fails here.

describe('the configuration guide', () => {
  it('holds the table the settings registry gives (else run `npm run docs:config`)', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    expect(guide).toContain(START);
    expect(guide).toContain(END);
    const inGuide = guide.slice(guide.indexOf(START) + START.length, guide.indexOf(END)).trim();
    expect(inGuide, 'docs/guides/configuration.md is stale: run `npm run docs:config`').toBe(renderConfigTable());
    expect(guideWithTable(guide)).toBe(guide);
  });

  it('lists every setting once, with its variable, its option or reader, and its default', () => {
    const rows = renderConfigTable().split('\n').slice(2);
    expect(rows).toHaveLength(SETTING_NAMES.length);
    SETTING_NAMES.forEach((setting, index) => {
      const spec = specOf(setting);
      const row = rows[index] ?? '';
      expect(row.startsWith(`| \`${setting}\``), row).toBe(true);
      expect(row).toContain(`\`${spec.env}\``);
      expect(row).toContain(spec.option ? `\`${spec.option}\`` : `read by ${spec.readBy}`);
      expect(row).toContain(`\`${JSON.stringify(DEFAULT_CONFIG[setting])}\``);
      if (spec.flag) expect(row).toContain(`\`${spec.flag} <value>\``);
    });
  });
});
