import { invalid } from '../retention/removal.js';
import { DAY_MS } from '../utils/time.js';

/** Options of `scheduleDaily`. */
export interface ScheduleDailyOptions {
  /** Hour of the day to run at, 0–23, in local time. */
  hour: number;
  /** Minute of that hour, 0–59. Default 0. */
  minute?: number;
  /** Source of the current time. Default `Date.now`. */
  clock?: { now(): number };
  /** Receives every error the task throws or rejects with. Default: errors are ignored. */
  onError?: (error: unknown) => void;
  /**
   * Run once soon as well, besides at the hour: a run the process missed (it was not up at the
   * last occurrence, see {@link missedDaily}) is caught up on start. Default false.
   */
  catchUp?: boolean;
  /** How long after the call the catch-up run comes, ms. Default 0. */
  catchUpDelayMs?: number;
}

/**
 * How long after start a daily run the process missed is caught up, ms: a client that lives a
 * minute (a server) catches up, one closed sooner (a script, a one-shot command) does not.
 */
export const CATCH_UP_DELAY_MS = 60_000;

/** Epoch milliseconds of the next local `hour`:`minute` strictly after `now`. */
function nextOccurrence(now: number, hour: number, minute: number): number {
  const next = new Date(now);
  next.setHours(hour, minute, 0, 0);
  if (next.getTime() <= now) next.setDate(next.getDate() + 1);
  return next.getTime();
}

/**
 * Whether a daily run at `hour`:`minute` is due now: none is known (`lastRunMs` undefined), or
 * the last one finished before the latest occurrence of that time, which the process was not up for.
 */
export function missedDaily(hour: number, lastRunMs: number | undefined, now: number, minute = 0): boolean {
  if (lastRunMs === undefined) return true;
  const latest = new Date(nextOccurrence(now, hour, minute));
  latest.setDate(latest.getDate() - 1);
  return lastRunMs < latest.getTime();
}

/**
 * Milliseconds until an interval schedule's first run: 0 when a run is due (none is known, or
 * the interval since the last one is over), else what is left of the interval. A last run
 * "in the future" (a clock set back) waits one interval at most.
 */
export function firstDelayMs(everyMs: number, lastRunMs: number | undefined, now: number): number {
  if (lastRunMs === undefined) return 0;
  return Math.min(everyMs, Math.max(0, lastRunMs + everyMs - now));
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
  const { hour, minute = 0, clock = { now: () => Date.now() }, onError, catchUp = false } = options;
  if (!(Number.isInteger(hour) && hour >= 0 && hour <= 23)) {
    throw invalid('scheduleDaily', 'hour', 'expected a whole hour from 0 to 23');
  }
  if (!(Number.isInteger(minute) && minute >= 0 && minute <= 59)) {
    throw invalid('scheduleDaily', 'minute', 'expected a whole minute from 0 to 59');
  }
  let stopped = false;
  let timeout: ReturnType<typeof setTimeout> | undefined;
  let interval: ReturnType<typeof setInterval> | undefined;
  const run = guardedRunner(task, onError, () => stopped);

  let catchUpTimer: ReturnType<typeof setTimeout> | undefined;
  if (catchUp) {
    catchUpTimer = setTimeout(() => {
      catchUpTimer = undefined;
      run();
    }, options.catchUpDelayMs ?? 0);
    catchUpTimer.unref?.();
  }
  const now = clock.now();
  timeout = setTimeout(
    () => {
      timeout = undefined;
      if (stopped) return;
      interval = setInterval(run, DAY_MS);
      interval.unref?.();
      run();
    },
    nextOccurrence(now, hour, minute) - now,
  );
  timeout.unref?.();

  return {
    stop() {
      stopped = true;
      if (catchUpTimer !== undefined) clearTimeout(catchUpTimer);
      if (timeout !== undefined) clearTimeout(timeout);
      if (interval !== undefined) clearInterval(interval);
      timeout = undefined;
      interval = undefined;
    },
  };
}

/** Options of `scheduleEvery`. */
export interface ScheduleEveryOptions {
  /** Time between runs, ms. */
  everyMs: number;
  /**
   * Milliseconds until the first run, 0 to run at once (a run that is due, see
   * {@link firstDelayMs}). Default: one interval.
   */
  firstDelayMs?: number;
  /** Receives every error the task throws or rejects with. Default: errors are ignored. */
  onError?: (error: unknown) => void;
}

/**
 * Run `task` every `everyMs` milliseconds, the first time after `firstDelayMs` (default one
 * interval from now). Like
 * {@link scheduleDaily}: unref'd timers, a run skipped while the previous one goes on,
 * errors to `onError`, never thrown.
 */
export function scheduleEvery(task: () => Promise<unknown>, options: ScheduleEveryOptions): { stop(): void } {
  const { everyMs, onError } = options;
  if (!(Number.isFinite(everyMs) && everyMs >= 1 && everyMs <= 2_147_483_647)) {
    throw invalid('scheduleEvery', 'everyMs', 'expected milliseconds from 1 to 2147483647 (about 24.8 days)');
  }
  const first = options.firstDelayMs ?? everyMs;
  if (!(Number.isFinite(first) && first >= 0 && first <= everyMs)) {
    throw invalid('scheduleEvery', 'firstDelayMs', 'expected milliseconds from 0 to everyMs');
  }
  let stopped = false;
  const run = guardedRunner(task, onError, () => stopped);
  let interval: ReturnType<typeof setInterval> | undefined;
  // The first run, then one every interval from it: a run caught up at start is followed by
  // the next one a whole interval later, not one counted from the last run before.
  let timeout: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    timeout = undefined;
    if (stopped) return;
    interval = setInterval(run, everyMs);
    interval.unref?.();
    run();
  }, first);
  timeout.unref?.();
  return {
    stop() {
      stopped = true;
      if (timeout !== undefined) clearTimeout(timeout);
      if (interval !== undefined) clearInterval(interval);
    },
  };
}
