/**
 * The one parser for the times people type: `recall`'s and `list`'s `since`/`until`, and the
 * CLI's `--since`, `--until` and `--occurred-at`. Relative times count back from a clock the
 * caller passes (the engine's, so tests with a fixed clock are deterministic).
 */

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

/** What {@link parseTime} accepts, for error messages and help. */
export const TIME_FORMATS =
  'a relative time such as 30d, 12h, 2w or 15m (that long ago), an ISO date such as 2025-11-30, or an ISO date-time such as 2025-11-30T10:00:00Z';

/** A time that is not in one of {@link TIME_FORMATS}. */
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
   * `until: '2025-11-30'` includes all of the 30th.
   */
  endOfDay?: boolean;
}

/**
 * How long ago a relative time (`30d`, `12h`, `2w`, `15m`, `90s`, `1.5h`, `now`) means, in
 * milliseconds; undefined for any other text.
 */
export function relativeTimeMs(input: string): number | undefined {
  const text = input.trim();
  if (text === 'now') return 0;
  const relative = RELATIVE.exec(text);
  if (!relative) return undefined;
  const ms = Math.round(Number(relative[1]) * UNIT_MS[relative[2]!]!);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * True when `input` has the shape of one of {@link TIME_FORMATS}, valid or not: a caller
 * that falls back to a laxer parser uses it so that `2025-02-30` stays an error.
 */
export function hasTimeFormat(input: string): boolean {
  const text = input.trim();
  return text === 'now' || RELATIVE.test(text) || DATE_ONLY.test(text) || DATE_TIME.test(text);
}

function utcDay(year: number, month: number, date: number): number | undefined {
  // Date.UTC reads years 0–99 as 1900–1999, so the year is set on its own.
  const day = new Date(0);
  day.setUTCFullYear(year, month - 1, date);
  // A calendar date must come back unchanged: 2025-02-30 would roll over to March 2.
  const valid = day.getUTCFullYear() === year && day.getUTCMonth() === month - 1 && day.getUTCDate() === date;
  return valid ? day.getTime() : undefined;
}

/**
 * Parse a typed time: `now`; a relative time `<number><unit>` with unit s, m (minutes), h,
 * d or w, meaning that long before now; a date `YYYY-MM-DD` (a UTC day); or an ISO
 * date-time, UTC unless it carries an offset.
 *
 * @throws TimeParseError naming the accepted formats.
 */
export function parseTime(input: string, options: ParseTimeOptions = {}): Date {
  const text = input.trim();
  const now = options.now ?? Date.now();

  const ago = relativeTimeMs(text);
  if (ago !== undefined) return checked(new Date(now - ago), input);

  const day = DATE_ONLY.exec(text);
  if (day) {
    const start = utcDay(Number(day[1]), Number(day[2]), Number(day[3]));
    if (start === undefined) throw new TimeParseError(input);
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
