import { DAY_MS } from '../../utils/time.js';
import { invalid } from '../retention/removal.js';

/** Options of `scheduleDaily`. */
export interface ScheduleDailyOptions {
  /** Hour of the day to run at, 0–23, in local time. */
  hour: number;
  /** Source of the current time. Default `Date.now`. */
  clock?: { now(): number };
  /** Receives every error the task throws or rejects with. Default: errors are ignored. */
  onError?: (error: unknown) => void;
}

/** Epoch milliseconds of the next local `hour`:00 strictly after `now`. */
function nextOccurrence(now: number, hour: number): number {
  const next = new Date(now);
  next.setHours(hour, 0, 0, 0);
  if (next.getTime() <= now) next.setDate(next.getDate() + 1);
  return next.getTime();
}

/**
 * One run of a scheduled task at a time: a run is skipped while the previous one goes on (or
 * after `stopped()` says so), and whatever the task throws or rejects with goes to `onError`,
 * which itself may not break the schedule.
 */
function guardedRunner(
  task: () => Promise<unknown>,
  onError: ((error: unknown) => void) | undefined,
  stopped: () => boolean,
): () => void {
  let running = false;
  const report = (error: unknown) => {
    try {
      onError?.(error);
    } catch {
      // onError must not break the schedule.
    }
  };
  return () => {
    if (stopped() || running) return;
    running = true;
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(task());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.catch(report).finally(() => {
      running = false;
    });
  };
}

/**
 * Run `task` every day at `hour`:00 local time: the first run at the next occurrence of that
 * hour, then every 24 hours. The timers are `unref()`'d, so a schedule never keeps the process
 * alive. A run is skipped while the previous one is still going. Errors from the task go to
 * `onError` and are never thrown.
 *
 * @example
 * ```ts
 * const job = scheduleDaily(() => cleanup(store, { retentionDays: 30, now: Date.now() }), { hour: 3 });
 * // later
 * job.stop();
 * ```
 */
export function scheduleDaily(task: () => Promise<unknown>, options: ScheduleDailyOptions): { stop(): void } {
  const { hour, clock = { now: () => Date.now() }, onError } = options;
  if (!(Number.isInteger(hour) && hour >= 0 && hour <= 23)) {
    throw invalid('scheduleDaily', 'hour', 'expected a whole hour from 0 to 23');
  }
  let stopped = false;
  let timeout: ReturnType<typeof setTimeout> | undefined;
  let interval: ReturnType<typeof setInterval> | undefined;
  const run = guardedRunner(task, onError, () => stopped);

  const now = clock.now();
  timeout = setTimeout(() => {
    timeout = undefined;
    if (stopped) return;
    interval = setInterval(run, DAY_MS);
    interval.unref?.();
    run();
  }, nextOccurrence(now, hour) - now);
  timeout.unref?.();

  return {
    stop() {
      stopped = true;
      if (timeout !== undefined) clearTimeout(timeout);
      if (interval !== undefined) clearInterval(interval);
      timeout = undefined;
      interval = undefined;
    },
  };
}

/** Options of `scheduleEvery`. */
export interface ScheduleEveryOptions {
  /** Time between runs, ms; the first run comes one interval after the call. */
  everyMs: number;
  /** Receives every error the task throws or rejects with. Default: errors are ignored. */
  onError?: (error: unknown) => void;
}

/**
 * Run `task` every `everyMs` milliseconds, the first time one interval from now. Like
 * {@link scheduleDaily}: unref'd timers, a run skipped while the previous one goes on,
 * errors to `onError`, never thrown.
 */
export function scheduleEvery(task: () => Promise<unknown>, options: ScheduleEveryOptions): { stop(): void } {
  const { everyMs, onError } = options;
  if (!(Number.isFinite(everyMs) && everyMs >= 1 && everyMs <= 2_147_483_647)) {
    throw invalid('scheduleEvery', 'everyMs', 'expected milliseconds from 1 to 2147483647 (about 24.8 days)');
  }
  let stopped = false;
  const interval = setInterval(
    guardedRunner(task, onError, () => stopped),
    everyMs,
  );
  interval.unref?.();
  return {
    stop() {
      stopped = true;
      clearInterval(interval);
    },
  };
}
