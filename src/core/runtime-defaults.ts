import { randomBytes } from 'node:crypto';
import type { Clock, IdGenerator, Logger, LogLevel } from './spec/runtime.js';

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Ids that sort by creation time: `<prefix>_<time base36><random>`. */
export const randomIds: IdGenerator = {
  next(prefix) {
    const time = Date.now().toString(36).padStart(9, '0');
    return `${prefix}_${time}${randomBytes(6).toString('hex')}`;
  },
};

const LEVEL_RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** A logger writing lines at or above `level` to stderr. */
export function createConsoleLogger(level: LogLevel = 'warn'): Logger {
  return {
    log(messageLevel, message, fields) {
      if (LEVEL_RANK[messageLevel] > LEVEL_RANK[level]) return;
      const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
      process.stderr.write(`[memoir] ${messageLevel}: ${message}${suffix}\n`);
    },
  };
}
