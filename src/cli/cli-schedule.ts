/** The daily maintenance a long-running command (`memoir mcp`) runs, from the schedule settings. */
import { formatDailyTime, parseDailyTime, scheduleFromSettings } from '../config/daily-time.js';
import type { CliContext, CommandClientOptions } from './cli-context.js';

/** The client's `schedule` option the settings name, and a line saying so at `info` (and with --debug). */
export function scheduleOption(context: CliContext): Pick<CommandClientOptions, 'schedule'> {
  const { config } = context;
  const schedule = scheduleFromSettings(config);
  const cleanup = parseDailyTime(config.scheduleCleanup);
  const consolidate = parseDailyTime(config.scheduleConsolidate);
  const at = (time: typeof cleanup) =>
    time === undefined || time === 'off' ? 'off' : `daily at ${formatDailyTime(time)}`;
  context.logger.log(
    'info',
    `maintenance: cleanup ${at(cleanup)} (memories older than ${config.retentionDays} days that may expire; bookmarked and manual_save never), consolidate ${at(consolidate)}`,
    { scheduleCleanup: config.scheduleCleanup, scheduleConsolidate: config.scheduleConsolidate },
  );
  return schedule === undefined ? {} : { schedule };
}
