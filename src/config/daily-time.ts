/**
 * The times of the daily maintenance settings (`scheduleCleanup`, `scheduleConsolidate`): a
 * cron line of one daily run, `M H * * *` as the seed writes it ("daily at 3 AM" is `0 3 * * *`),
 * or `HH:MM`, or `off`. Only daily times: memoir's schedule runs once a day.
 *
 * @module
 */
import { z } from 'zod';
import type { MemoryOptions } from '../core/client/memory-options.js';

/** A local time of day. */
export interface DailyTime {
  /** 0–23. */
  hour: number;
  /** 0–59. */
  minute: number;
}

const CRON = /^(\d{1,2})\s+(\d{1,2})\s+\*\s+\*\s+\*$/;
const CLOCK = /^(\d{1,2})(?::(\d{2}))?$/;

/**
 * Read a daily time: `0 3 * * *` (cron: minute, hour, every day), `03:00`, `3`; `off` (or
 * `null`) is no run. Anything else, including a cron line that is not daily, is undefined.
 */
export function parseDailyTime(text: string | null): DailyTime | 'off' | undefined {
  if (text === null) return 'off';
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'off' || trimmed === 'none') return 'off';
  const cron = CRON.exec(trimmed);
  const clock = cron ? undefined : CLOCK.exec(trimmed);
  const hour = Number(cron ? cron[2] : clock?.[1]);
  const minute = Number(cron ? cron[1] : (clock?.[2] ?? 0));
  if (!(cron || clock) || !(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59)) return undefined;
  return { hour, minute };
}

/** The schema of a daily-time setting: text {@link parseDailyTime} reads, or null for off. */
export const dailyTimeSchema = z
  .string()
  .max(64)
  .refine((text) => parseDailyTime(text) !== undefined, {
    message: 'expected a daily time: "M H * * *", "HH:MM" or "off"',
  })
  .nullable();

/** "03:00". */
export function formatDailyTime(time: DailyTime): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}

/**
 * The createMemory `schedule` the two settings name: cleanup daily at its time, consolidate
 * right after it (same time), at its own time, or never; undefined when both are off.
 */
export function scheduleFromSettings(settings: {
  scheduleCleanup: string | null;
  scheduleConsolidate: string | null;
}): MemoryOptions['schedule'] {
  const cleanup = parseDailyTime(settings.scheduleCleanup);
  const consolidate = parseDailyTime(settings.scheduleConsolidate);
  if (cleanup === undefined || consolidate === undefined) return undefined;
  if (cleanup === 'off') {
    return consolidate === 'off' ? undefined : { ...consolidate, cleanup: false, consolidate: true };
  }
  const together = consolidate !== 'off' && consolidate.hour === cleanup.hour && consolidate.minute === cleanup.minute;
  return { ...cleanup, cleanup: true, consolidate: consolidate === 'off' ? false : together ? true : consolidate };
}
