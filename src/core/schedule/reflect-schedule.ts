/**
 * Reflect on a schedule: a client with a workspace reflects daily by default (at the daily
 * maintenance hour when `schedule` sets one, else every 24 hours from the last run), each
 * run bounded in model tokens and wall time. The last run is kept in the workspace
 * (`.memory/schedule.json`, see schedule-log.ts), so a process started when a run is due
 * (none known, or the interval or the hour passed since) reflects soon after it starts
 * (`catchUpDelayMs`, a minute by default).
 */
import { z } from 'zod';
import { DAY_MS } from '../utils/time.js';
import { firstDelayMs, missedDaily, scheduleDaily, scheduleEvery } from './schedule.js';

const HOUR_MS = 3_600_000;
/** The longest interval a timer can wait (2^31 - 1 ms) is a little over 596 hours. */
const MAX_EVERY_HOURS = 576;

/** Options of the scheduled reflect (`reflect` in createMemory's options). */
export const reflectScheduleSchema = z
  .object({
    /**
     * How often: `'daily'` (default), `'off'`, or a number of hours between runs (a second,
     * 1/3600, up to 576).
     */
    every: z
      .union([
        z.literal('daily'),
        z.literal('off'),
        z
          .number()
          .min(1 / 3600)
          .max(MAX_EVERY_HOURS),
      ])
      .default('daily'),
    /** Most model tokens one scheduled run may use (entity summaries). Default 50000. */
    maxTokens: z.number().int().min(1).max(100_000_000).default(50_000),
    /** Longest one scheduled run may take, ms. Default 600000 (ten minutes). */
    deadlineMs: z.number().int().min(1).max(86_400_000).default(600_000),
    /**
     * How long a run that is due when the client starts (none kept, or the interval or the
     * hour passed since the last) waits, ms. Default 60000: a client that lives a minute (a
     * server, a gateway) catches up, one closed sooner (a script, a one-shot command) leaves it
     * for the next, so it neither races the caller's own calls nor holds up its close().
     */
    catchUpDelayMs: z.number().int().min(0).max(86_400_000).default(60_000),
  })
  .strict();

/**
 * Options of the scheduled reflect.
 *
 * @group Reflect
 */
export type ReflectScheduleOptions = z.input<typeof reflectScheduleSchema>;

/** The scheduled reflect as parsed. */
export type ReflectSchedule = z.output<typeof reflectScheduleSchema>;

/** What one scheduled run is asked to do. */
export interface ScheduledReflectRun {
  /** Reflect over memories that occurred since this instant (epoch ms). */
  sinceMs: number;
  /** Model tokens the run may use. */
  maxTokens: number;
  /** Wall time the run may take, ms. */
  deadlineMs: number;
}

/**
 * Start the scheduled reflect; returns its stop, or undefined when it is off. Each run
 * reflects over at least the last 7 days (or the interval and a day, when longer), so a
 * run that stopped at its bound leaves nothing behind for good: the next one sees it again.
 * With `lastRun` (the last finished run, when runs are kept), a run that is due starts at
 * once and an interval counts from the last run, not from this call.
 */
export function startReflectSchedule(
  schedule: ReflectSchedule,
  options: {
    /** The daily maintenance hour, when `schedule` sets one. */
    hour: number | undefined;
    /** Time source for the window. */
    clock: { now(): number };
    /** One run; resolves when it is done. */
    run: (request: ScheduledReflectRun) => Promise<unknown>;
    /** Receives a failed run's error. */
    onError: (error: unknown) => void;
    /**
     * The last finished run as kept (`{ atMs: undefined }`: none kept, so one is due); absent
     * when runs are not kept, so the schedule counts from now.
     */
    lastRun?: { atMs: number | undefined };
  },
): (() => void) | undefined {
  if (schedule.every === 'off') return undefined;
  const everyMs = schedule.every === 'daily' ? DAY_MS : schedule.every * HOUR_MS;
  const windowMs = Math.max(7 * DAY_MS, everyMs + DAY_MS);
  const task = () =>
    options.run({
      sinceMs: options.clock.now() - windowMs,
      maxTokens: schedule.maxTokens,
      deadlineMs: schedule.deadlineMs,
    });
  const now = options.clock.now();
  const { lastRun } = options;
  const job =
    schedule.every === 'daily' && options.hour !== undefined
      ? scheduleDaily(task, {
          hour: options.hour,
          clock: options.clock,
          onError: options.onError,
          catchUp: lastRun !== undefined && missedDaily(options.hour, lastRun.atMs, now),
          catchUpDelayMs: schedule.catchUpDelayMs,
        })
      : scheduleEvery(task, {
          everyMs: Math.round(everyMs),
          onError: options.onError,
          ...(lastRun === undefined
            ? {}
            : {
                firstDelayMs: Math.min(
                  Math.round(everyMs),
                  Math.max(schedule.catchUpDelayMs, firstDelayMs(Math.round(everyMs), lastRun.atMs, now)),
                ),
              }),
        });
  return () => job.stop();
}
