import { randomBytes } from 'node:crypto';
import type { Clock, IdGenerator, Logger, LogLevel } from '../spec/runtime.js';

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

// Random bytes drawn a few kilobytes at a time: one system call per 680 ids, not per id.
let pool = Buffer.alloc(0);
let offset = 0;
function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/** Ids that sort by creation time: `<prefix>_<time base36><random>`. */
export const randomIds: IdGenerator = {
  next(prefix) {
    const time = Date.now().toString(36).padStart(9, '0');
    return `${prefix}_${time}${randomHex(6)}`;
  },
};

const LEVEL_RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** True when a line at `level` should be written under the `threshold` level. */
export function isLevelEnabled(level: LogLevel, threshold: LogLevel): boolean {
  return LEVEL_RANK[level] <= LEVEL_RANK[threshold];
}

/** A logger writing lines at or above `level` to stderr. */
export function createConsoleLogger(level: LogLevel = 'warn'): Logger {
  return {
    log(messageLevel, message, fields) {
      if (!isLevelEnabled(messageLevel, level)) return;
      const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
      process.stderr.write(`[memoir] ${messageLevel}: ${message}${suffix}\n`);
    },
  };
}
