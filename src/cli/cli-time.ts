/** Parsing of the times the CLI accepts in `--since`, `--until` and `--occurred-at`. */

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const RELATIVE = /^(\d+(?:\.\d+)?)([smhdw])$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?$/i;

/** What the CLI's time options accept, for error messages and help. */
export const TIME_FORMATS =
  'a relative time such as 30d, 12h, 2w or 15m (that long ago), an ISO date such as 2025-11-30, or an ISO date-time such as 2025-11-30T10:00:00Z';

/** A time the user typed that is not in one of {@link TIME_FORMATS}. */
export class TimeParseError extends Error {
  constructor(readonly input: string) {
    super(`expected ${TIME_FORMATS} (got ${JSON.stringify(input)})`);
    this.name = 'TimeParseError';
  }
}

/** Options of {@link parseTime}. */
export interface ParseTimeOptions {
  /** What relative times count back from, epoch milliseconds. Default `Date.now()`. */
  now?: number;
  /**
   * For a bare date, the last millisecond of that day instead of the first, so that
   * `--until 2025-11-30` includes all of the 30th.
   */
  endOfDay?: boolean;
}

/**
 * Parse a CLI time: `now`; a relative time `<number><unit>` with unit s, m (minutes), h,
 * d or w, meaning that long before now; a date `YYYY-MM-DD` (a UTC day); or an ISO
 * date-time, UTC unless it carries an offset.
 *
 * @throws TimeParseError naming the accepted formats.
 */
export function parseTime(input: string, options: ParseTimeOptions = {}): Date {
  const text = input.trim();
  const now = options.now ?? Date.now();
  if (text === 'now') return new Date(now);

  const relative = RELATIVE.exec(text);
  if (relative) {
    const ms = Number(relative[1]) * UNIT_MS[relative[2]!]!;
    return checked(new Date(now - Math.round(ms)), input);
  }

  const day = DATE_ONLY.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = Date.UTC(year, month - 1, date);
    const parsed = new Date(start);
    // Date.UTC rolls 2025-02-30 over to March 2; a calendar date must come back unchanged.
    if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== date) {
      throw new TimeParseError(input);
    }
    return checked(new Date(options.endOfDay ? start + UNIT_MS.d! - 1 : start), input);
  }

  const dateTime = DATE_TIME.exec(text);
  if (dateTime) {
    const [, datePart, timePart, zone] = dateTime;
    // Rejects impossible calendar dates the way a bare date does.
    parseTime(datePart!, { now });
    return checked(new Date(Date.parse(`${datePart}T${timePart}${zone ? zone.toUpperCase() : 'Z'}`)), input);
  }
  throw new TimeParseError(input);
}

function checked(date: Date, input: string): Date {
  if (!Number.isFinite(date.getTime())) throw new TimeParseError(input);
  return date;
}
