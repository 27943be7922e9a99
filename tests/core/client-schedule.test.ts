import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInMemoryStore, createMemory, type MemoryOptions } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, tempDir } from '../helpers/stores.js';

// The client's `schedule` option: a daily cleanup (and consolidate when asked) at a local hour,
// on timers that never keep the process alive and stop with close(). Each test fails if the
// run comes at another hour, does not come, skips consolidation it was asked for, or outlives
// the client.

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Timers faked, with their clear functions: a real clearTimeout cannot clear a fake timer. */
const FAKED = ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] as const;
const T0 = Date.parse('2025-12-01T12:00:00Z');
const backupDirectory = tempDir('memoir-schedule-backups-');
const SCREEN =
  'Billing dashboard: invoices table with columns Date, Customer, Amount, Status; filter bar; export button';

/** Milliseconds from `now` to the next local `hour`:00 strictly after it. */
function untilLocalHour(now: number, hour: number): number {
  const next = new Date(now);
  next.setHours(hour, 0, 0, 0);
  if (next.getTime() <= now) next.setDate(next.getDate() + 1);
  return next.getTime() - now;
}

/** An in-memory client on a fixed clock at T0 with `schedule`, its errors and its cleanup runs. */
function scheduledClient(schedule: NonNullable<MemoryOptions['schedule']>) {
  const clock = createFixedClock(T0);
  // Every cleanup run logs one line, whether it deletes anything or not: the runs are counted.
  const cleanups: string[] = [];
  const memory = createMemory({
    store: createInMemoryStore(),
    clock,
    logger: {
      log(_level, message) {
        if (message.startsWith('retention cleanup')) cleanups.push(message);
      },
    },
    backupDirectory,
    schedule,
    capture: { enabled: true, minIntervalSeconds: 0 },
  });
  const errors: unknown[] = [];
  memory.on('error', (event) => errors.push(event.error));
  return { memory, clock, errors, cleanups };
}

/**
 * Real time for a run the fake timers may have started (its backup and deletes do real I/O)
 * to finish, so that "nothing ran yet" is not just "it has not finished yet".
 */
const settle = () => sleep(300);

/** The local hour five hours after T0's: a run at any other hour shows. */
const HOUR = (new Date(T0).getHours() + 5) % 24;

describe('the client’s schedule option', () => {
  afterEach(() => vi.useRealTimers());

  it('runs cleanup first at the named local hour, not before, then again a day later', async () => {
    vi.useFakeTimers({ toFake: [...FAKED] });
    const { memory, clock, errors, cleanups } = scheduledClient({ hour: HOUR });
    const fact = await memory.retain({ content: 'Ada was born in 1815.' });
    memory.capture({ tool: 'click', parameters: { x: 3 } });
    await memory.flush();
    expect(await memory.list()).toHaveLength(2);
    // The capture is old enough to expire by the time the run comes.
    clock.advance(45 * DAY);

    const wait = untilLocalHour(T0, HOUR);
    await vi.advanceTimersByTimeAsync(wait - MINUTE);
    await settle();
    expect(cleanups).toEqual([]);
    expect(await memory.list()).toHaveLength(2);

    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    await vi.waitFor(() => expect(cleanups).toHaveLength(1));
    expect((await memory.list()).map((item) => item.id)).toEqual(fact.ids);

    // A second capture, expired again by the next run: the schedule repeats every day.
    memory.capture({ tool: 'scroll', parameters: { by: 300 } });
    await memory.flush();
    clock.advance(45 * DAY);
    await vi.advanceTimersByTimeAsync(DAY - 2 * MINUTE);
    await settle();
    expect(cleanups).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    await vi.waitFor(() => expect(cleanups).toHaveLength(2));
    expect((await memory.list()).map((item) => item.id)).toEqual(fact.ids);

    expect(errors).toEqual([]);
    await memory.close();
  });

  it.each([
    [true, 1],
    [false, 5],
  ])('consolidate: %s — the daily run leaves %i of five near-identical screens', async (consolidate, left) => {
    vi.useFakeTimers({ toFake: [...FAKED] });
    const { memory, errors } = scheduledClient({ hour: HOUR, consolidate });
    await memory.retain(
      Array.from({ length: 5 }, (_, index) => ({ content: `${SCREEN} (capture ${index})`, category: 'screen' })),
    );
    // consolidate() itself does it at once; the schedule must do it only when asked.
    await vi.advanceTimersByTimeAsync(untilLocalHour(T0, HOUR) + MINUTE);
    await memory.flush();
    await vi.waitFor(async () => expect(await memory.list({ categories: ['screen'] })).toHaveLength(left));
    expect(errors).toEqual([]);
    await memory.close();
  });

  it('keeps no process alive while waiting, and close() clears its timers', async () => {
    vi.useFakeTimers({ toFake: [...FAKED] });
    // What a client without a schedule leaves pending, before and after close, is the baseline.
    const pending = async (options: Pick<MemoryOptions, 'schedule'>) => {
      const memory = createMemory({ store: createInMemoryStore(), logger: quiet, ...options });
      await memory.retain('something');
      const open = vi.getTimerCount();
      await memory.close();
      return { open, closed: vi.getTimerCount() };
    };
    const without = await pending({});
    vi.clearAllTimers();
    const scheduled = await pending({ schedule: { hour: HOUR } });
    expect(scheduled.open).toBe(without.open + 1);
    expect(scheduled.closed).toBe(without.closed);
    vi.useRealTimers();

    // With real timers: the schedule's wait is unref'd, so it adds no active Timeout.
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const plain = createMemory({ store: createInMemoryStore(), logger: quiet });
    await plain.retain('something');
    const before = timers();
    await plain.close();
    const real = createMemory({ store: createInMemoryStore(), logger: quiet, schedule: { hour: HOUR } });
    await real.retain('something');
    expect(timers()).toBe(before);
    await real.close();
  });
});
