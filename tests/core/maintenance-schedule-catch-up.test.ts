import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemory } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { tempDir } from '../helpers/stores.js';

// The daily cleanup of a client on the default store keeps its last run in
// <home>/schedule.json: a process that was not up at the hour (restarted each morning, say)
// catches the missed run up a minute after it starts, and one restarted after the day's run
// does not run again. Fails when the schedule only ever waits for the next hour.

const FAKED = ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] as const;
const T0 = Date.parse('2025-12-01T12:00:00Z');
const DAY = 86_400_000;
const MINUTE = 60_000;
/** The local hour five hours after T0's: the next occurrence is hours away, the last one yesterday. */
const HOUR = (new Date(T0).getHours() + 5) % 24;

function start(home: string) {
  const cleanups: string[] = [];
  const memory = createMemory({
    home,
    clock: createFixedClock(T0),
    schedule: { hour: HOUR },
    logger: {
      log(_level, message) {
        if (message.startsWith('retention cleanup')) cleanups.push(message);
      },
    },
  });
  return { memory, cleanups };
}

const lastCleanup = (home: string): string | undefined =>
  existsSync(join(home, 'schedule.json'))
    ? JSON.parse(readFileSync(join(home, 'schedule.json'), 'utf8')).lastRuns.cleanup
    : undefined;

describe('the daily cleanup across restarts', () => {
  afterEach(() => vi.useRealTimers());

  it('catches up a missed run a minute after start, and does not run again after a restart the same day', async () => {
    vi.useFakeTimers({ toFake: [...FAKED] });
    const home = tempDir('memoir-maintenance-catch-up-');
    // The last run was two days ago: yesterday's was missed.
    writeFileSync(
      join(home, 'schedule.json'),
      JSON.stringify({ version: 1, lastRuns: { cleanup: new Date(T0 - 2 * DAY).toISOString() } }),
    );
    const first = start(home);
    await first.memory.retain('Ada was born in 1815.');
    await vi.advanceTimersByTimeAsync(MINUTE - 1_000);
    await sleep(200);
    expect(first.cleanups).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(lastCleanup(home)).toBe(new Date(T0).toISOString()));
    expect(first.cleanups).toHaveLength(1);
    await first.memory.close();

    // Restarted the same day, after that run: nothing is due until the hour.
    const second = start(home);
    await second.memory.retain('Grace wrote COBOL.');
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    await sleep(300);
    expect(second.cleanups).toEqual([]);
    await second.memory.close();
  });
});
