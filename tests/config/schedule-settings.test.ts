import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDailyTime, scheduleFromSettings } from '../../src/config/daily-time.js';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/index.js';
import { tempDir } from '../helpers/stores.js';

// Seed 001: "retention 30 days, cleanup daily at 3 AM"; deduplication runs when asked. The
// schedule settings say when a long-running `memoir mcp` runs them, from the file's
// "schedule" section or the environment, and refuse what is not a daily time.

function home(file?: unknown): string {
  const dir = tempDir('memoir-schedule-settings-');
  if (file !== undefined) writeFileSync(join(dir, 'config.json'), JSON.stringify(file));
  return dir;
}

describe('schedule settings', () => {
  it('default to the seed: cleanup daily at 03:00, no scheduled consolidation', () => {
    const { config, sources } = loadConfig({ env: { MEMOIR_HOME: home() } });
    expect(config.scheduleCleanup).toBe('0 3 * * *');
    expect(config.scheduleConsolidate).toBeNull();
    expect(sources.scheduleCleanup).toEqual({ kind: 'default' });
    expect(scheduleFromSettings(config)).toEqual({ hour: 3, minute: 0, cleanup: true, consolidate: false });
  });

  it('read the file’s "schedule" section, and the environment over it', () => {
    const dir = home({ schedule: { cleanup: '30 2 * * *', consolidate: '04:15' } });
    const { config, sources } = loadConfig({ env: { MEMOIR_HOME: dir } });
    expect(scheduleFromSettings(config)).toEqual({
      hour: 2,
      minute: 30,
      cleanup: true,
      consolidate: { hour: 4, minute: 15 },
    });
    expect(sources.scheduleConsolidate).toEqual({ kind: 'file', path: join(dir, 'config.json') });

    const env = { MEMOIR_HOME: dir, MEMOIR_SCHEDULE_CLEANUP: 'off', MEMOIR_SCHEDULE_CONSOLIDATE: '0 5 * * *' };
    const overridden = loadConfig({ env });
    expect(overridden.sources.scheduleCleanup).toEqual({ kind: 'env', variable: 'MEMOIR_SCHEDULE_CLEANUP' });
    expect(scheduleFromSettings(overridden.config)).toEqual({ hour: 5, minute: 0, cleanup: false, consolidate: true });
    const off = loadConfig({ env: { ...env, MEMOIR_SCHEDULE_CONSOLIDATE: 'off' } });
    expect(scheduleFromSettings(off.config)).toBeUndefined();
  });

  it('refuse a time that is not daily, naming the setting and where it came from', () => {
    for (const text of ['0 3 * * 1', '25:00', 'every day', '61 3 * * *']) expect(parseDailyTime(text)).toBeUndefined();
    const error = (() => {
      try {
        loadConfig({ env: { MEMOIR_HOME: home(), MEMOIR_SCHEDULE_CLEANUP: '0 3 * * 1' } });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).field).toBe('scheduleCleanup');
    expect((error as Error).message).toContain('MEMOIR_SCHEDULE_CLEANUP');
    expect(() => loadConfig({ env: { MEMOIR_HOME: home({ schedule: { cleanup: 3, nightly: true } }) } })).toThrow(
      /schedule/,
    );
  });
});
