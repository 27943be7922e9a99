import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import memoirPlugin from '../../src/integrations/openclaw/index.js';
import { openClawConfigJsonSchema } from '../../src/integrations/openclaw/openclaw-config.js';
import { OPENCLAW_TOOL_NAMES } from '../../src/integrations/openclaw/openclaw-tools.js';
import { fakeHost, stateDirectory } from './openclaw-fake-host.js';

// What a host reads before it runs any code: openclaw.plugin.json and package.json#openclaw.
// They must say what the code does, or the host refuses the plugin's tools or its config.

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;

describe('the OpenClaw manifests', () => {
  it('openclaw.plugin.json carries the config schema the code parses and every tool it registers', () => {
    const manifest = read('openclaw.plugin.json');
    expect(manifest.id).toBe(memoirPlugin.id);
    expect(manifest.configSchema).toEqual(openClawConfigJsonSchema());
    expect(memoirPlugin.configSchema.jsonSchema).toEqual(openClawConfigJsonSchema());
    expect(manifest.contracts).toEqual({ tools: [...OPENCLAW_TOOL_NAMES] });
    expect(manifest.activation).toEqual({ onStartup: true });
    // Coexistence by default: a memory-kind plugin competes for the memory slot.
    expect(manifest.kind).toBeUndefined();
  });

  it('package.json points the host at the built entry and ships the manifest', () => {
    const pkg = read('package.json') as { openclaw: { extensions: string[] }; files: string[]; exports: object };
    expect(pkg.openclaw.extensions).toEqual(['./dist/openclaw.js']);
    expect(pkg.files).toContain('openclaw.plugin.json');
    expect(pkg.exports).toHaveProperty('./openclaw');
  });

  it('the default export is a plugin definition whose register is synchronous', () => {
    expect(Object.keys(memoirPlugin).sort()).toEqual(['configSchema', 'description', 'id', 'name', 'register']);
    const { dir, remove } = stateDirectory();
    const host = fakeHost({}, { stateDir: dir });
    expect(memoirPlugin.register(host.api)).toBeUndefined();
    remove();
  });

  it('configSchema.safeParse fills defaults and names the field of a bad value', () => {
    expect(memoirPlugin.configSchema.safeParse({})).toMatchObject({
      success: true,
      data: { store: 'sqlite', recallLimit: 5, recallMinScore: 0.3, extractMinMessages: 4, extractMaxChars: 8000 },
    });
    const bad = memoirPlugin.configSchema.safeParse({ llm: { baseUrl: 'ftp://x' } });
    expect(bad.success).toBe(false);
    expect(bad.success ? [] : bad.error.issues.map((issue) => issue.path.join('.'))).toEqual(['llm.baseUrl']);
    expect(memoirPlugin.configSchema.safeParse({ unknownKey: 1 }).success).toBe(false);
  });

  it('registerTools: false leaves the tool names to memory-lancedb', () => {
    const { dir, remove } = stateDirectory();
    // The core block and procedure tools stay: memory-lancedb has no tools of those names.
    expect([...fakeHost({ registerTools: false }, { stateDir: dir }).tools.keys()]).toEqual([
      'memory_core_read',
      'memory_core_append',
      'memory_core_replace',
      'memory_core_insert',
      'memory_find_procedures',
      'memory_get_procedure',
      'memory_learn_procedure',
    ]);
    expect(
      fakeHost({ registerTools: false, coreBlock: false, procedures: { tools: false } }, { stateDir: dir }).tools.size,
    ).toBe(0);
    remove();
  });
});
