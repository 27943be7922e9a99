import { z } from 'zod';
import type { ReflectSchedule } from '../schedule/reflect-schedule.js';
import type { ScheduleLog } from '../schedule/schedule-log.js';
import { filterOptionFields } from '../search/filter-options.js';

/** Options of `memory.reflect()`. */
export const reflectOptionsSchema = z
  .object({
    /** Reflect over memories that occurred since this time: `7d`, `last week`, an ISO date, a Date. Default `7d`. */
    since: filterOptionFields.since,
    /**
     * Most model tokens (prompt and answer, as the model reports them) the run may use; it
     * stops before a summary that would go over. Default: no bound.
     */
    maxTokens: z.number().int().min(1).max(100_000_000).optional(),
    /** Longest the run may take, ms (wall time); a summary in flight is aborted then. Default: no bound. */
    deadlineMs: z.number().int().min(1).max(86_400_000).optional(),
  })
  .strict();
/**
 * Options of `memory.reflect()`.
 *
 * @group Reflect
 */
export type ReflectOptions = z.input<typeof reflectOptionsSchema>;

/** What the reflect feature needs from createMemory's options. */
export interface ReflectSettings {
  /** The client's workspace root, if any. */
  root: string | undefined;
  /** The scheduled reflect (runs only with a workspace); undefined: the defaults (daily). */
  schedule?: ReflectSchedule;
  /** The daily maintenance hour, when `schedule` sets one: a daily reflect runs then. */
  hour?: number;
  /**
   * Where the last run is kept (the workspace's `.memory/schedule.json`), so a process started
   * when a run is due catches up. Every finished run is recorded, a call's as a scheduled one's.
   */
  scheduleLog?: ScheduleLog;
}
