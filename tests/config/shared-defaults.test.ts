import { describe, expect, it } from 'vitest';
import { EXTRACTION_DEFAULTS } from '../../src/config/door-defaults.js';
import { DEFAULT_CONFIG } from '../../src/config/memoir-config.js';
import { SETTING_NAMES, specOf } from '../../src/config/setting-registry.js';
import { captureOptionsSchema } from '../../src/core/capture/capture-options.js';
import { memoryOptionsSchema } from '../../src/core/client/memory-options.js';
import { parseOpenClawConfig } from '../../src/integrations/openclaw/openclaw-config.js';

// A default is written once, in the option schema that owns it; the settings and the OpenClaw
// config read it from there.

const parsedDefaults = memoryOptionsSchema.parse({}) as Record<string, unknown>;
const at = (path: string) =>
  path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], parsedDefaults);

describe('shared defaults', () => {
  it.each(
    SETTING_NAMES.filter(
      (setting) => specOf(setting).option && !['home', 'logger'].includes(specOf(setting).option ?? ''),
    ),
  )('%s defaults to what its createMemory option defaults to', (setting) => {
    const option = specOf(setting).option as string;
    // createMemory hands `capture` to the capture module, whose schema owns its defaults.
    const optionDefault = option === 'capture.enabled' ? captureOptionsSchema.parse({}).enabled : at(option);
    expect(DEFAULT_CONFIG[setting]).toEqual(optionDefault ?? null);
  });

  it('the OpenClaw config takes the library extraction defaults', () => {
    const config = parseOpenClawConfig({});
    expect(config.extractMaxChars).toBe(EXTRACTION_DEFAULTS.maxChars);
    expect(config.extractMinMessages).toBe(EXTRACTION_DEFAULTS.minMessages);
    expect(memoryOptionsSchema.parse({}).extraction).toMatchObject({
      maxChars: config.extractMaxChars,
      minMessages: config.extractMinMessages,
    });
  });
});
