/**
 * Time cues in what people type: "around Nov 27", "during Nov 2025", "since last week",
 * "last time we tried Y". A small parser of general English calendar phrases, resolved
 * against the engine's clock (UTC days); it knows nothing about any particular data set.
 */
import { MAX_TIME_MS } from '../spec/memory.js';
import { DAY_MS } from './time.js';

/** A span of time a cue names, epoch milliseconds, both ends inclusive. */
export interface TimeSpan {
  /** First millisecond. */
  start: number;
  /** Last millisecond. */
  end: number;
}

/** What a query says about time. */
export interface TimeCue {
  /** The span the query is about; undefined when the cue only asks for the newest. */
  span?: TimeSpan;
  /** "last time", "most recent", "latest": the newest matching memory is wanted. */
  newest: boolean;
  /** The query with the cue's words taken out (what is searched for). */
  rest: string;
  /** The words of the cue, as written. */
  phrase: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
// "around" a day means a few days either side: people round dates in speech.
const AROUND_DAYS = 3;

const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const span = (start: number, end: number): TimeSpan => ({ start, end });
const monthIndex = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase());

function monthSpan(year: number, month: number): TimeSpan {
  return span(Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1) - 1);
}

function weekStart(ms: number): number {
  const day = dayStart(ms);
  // Weeks start on Monday (ISO 8601).
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
}

// A date given without a year is the most recent one not after now.
function yearFor(month: number, day: number, now: number): number {
  const year = new Date(now).getUTCFullYear();
  return Date.UTC(year, month, day) > now ? year - 1 : year;
}

function validDay(year: number, month: number, day: number): number | undefined {
  const ms = Date.UTC(year, month, day);
  const date = new Date(ms);
  return date.getUTCMonth() === month && date.getUTCDate() === day ? ms : undefined;
}

/** A named span such as "last week", "yesterday", "this month", "3 days ago"; undefined otherwise. */
export function namedSpan(text: string, now: number): TimeSpan | undefined {
  const phrase = text.trim().toLowerCase();
  const today = dayStart(now);
  const year = new Date(now).getUTCFullYear();
  const month = new Date(now).getUTCMonth();
  switch (phrase) {
    case 'today':
      return span(today, today + DAY_MS - 1);
    case 'yesterday':
      return span(today - DAY_MS, today - 1);
    case 'this week':
      return span(weekStart(now), today + DAY_MS - 1);
    case 'last week':
    case 'the last week':
    case 'past week':
    case 'the past week':
      return span(weekStart(now) - 7 * DAY_MS, weekStart(now) - 1);
    case 'this month':
      return span(Date.UTC(year, month, 1), today + DAY_MS - 1);
    case 'last month':
      return monthSpan(month === 0 ? year - 1 : year, (month + 11) % 12);
    case 'this year':
      return span(Date.UTC(year, 0, 1), today + DAY_MS - 1);
    case 'last year':
      return span(Date.UTC(year - 1, 0, 1), Date.UTC(year, 0, 1) - 1);
  }
  const ago = /^(\d+|a|an|one|two|three|four|five|six|seven)\s+(day|week|month|year)s?\s+ago$/.exec(phrase);
  if (ago) {
    const words: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
    const count = words[ago[1]!] ?? Number(ago[1]);
    const days = { day: 1, week: 7, month: 30, year: 365 }[ago[2] as 'day' | 'week' | 'month' | 'year'] * count;
    const centre = today - days * DAY_MS;
    const slack = Math.max(1, Math.round(days / 7)) * DAY_MS;
    return span(centre - slack, centre + slack + DAY_MS - 1);
  }
  return undefined;
}

interface Rule {
  pattern: RegExp;
  resolve: (match: RegExpExecArray, now: number) => Pick<TimeCue, 'span' | 'newest'> | undefined;
}

const NAMED_SPANS =
  '(today|yesterday|this week|(?:the )?last week|(?:the )?past week|this month|last month|this year|last year|(?:\\d+|an?|one|two|three|four|five|six|seven) (?:day|week|month|year)s? ago)';

const RULES: Rule[] = [
  {
    // "around Nov 27", "on November 27, 2025", "around 27 Nov"
    pattern: new RegExp(
      `\\b(around|about|near|on|circa)\\s+(?:${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH})(?:,?\\s+(\\d{4}))?\\b`,
      'i',
    ),
    resolve: (m, now) => {
      const month = monthIndex(m[2] ?? m[5]!);
      const day = Number(m[3] ?? m[4]);
      const year = m[6] ? Number(m[6]) : yearFor(month, day, now);
      const start = validDay(year, month, day);
      if (start === undefined) return undefined;
      const slack = m[1]!.toLowerCase() === 'on' ? 0 : AROUND_DAYS * DAY_MS;
      return { span: span(start - slack, start + DAY_MS - 1 + slack), newest: false };
    },
  },
  {
    // "around 2025-11-27", "on 2025-11-27"
    pattern: /\b(around|about|near|on)\s+(\d{4})-(\d{2})-(\d{2})\b/i,
    resolve: (m) => {
      const start = validDay(Number(m[2]), Number(m[3]) - 1, Number(m[4]));
      if (start === undefined) return undefined;
      const slack = m[1]!.toLowerCase() === 'on' ? 0 : AROUND_DAYS * DAY_MS;
      return { span: span(start - slack, start + DAY_MS - 1 + slack), newest: false };
    },
  },
  {
    // "during Nov 2025", "in November 2025", "in November"
    pattern: new RegExp(`\\b(?:during|in|throughout)\\s+${MONTH}(?:\\s+(\\d{4}))?\\b`, 'i'),
    resolve: (m, now) => {
      const month = monthIndex(m[1]!);
      const year = m[2] ? Number(m[2]) : yearFor(month, 1, now);
      return { span: monthSpan(year, month), newest: false };
    },
  },
  {
    // "during 2025", "in 2024"
    pattern: /\b(?:during|in|throughout)\s+((?:19|20)\d{2})\b/i,
    resolve: (m) => ({ span: span(Date.UTC(Number(m[1]), 0, 1), Date.UTC(Number(m[1]) + 1, 0, 1) - 1), newest: false }),
  },
  {
    // "since last week", "since yesterday"
    pattern: new RegExp(`\\bsince\\s+${NAMED_SPANS}\\b`, 'i'),
    resolve: (m, now) => {
      const named = namedSpan(m[1]!, now);
      return named && { span: span(named.start, MAX_TIME_MS), newest: false };
    },
  },
  {
    // "since Nov 20", "since 2025-11-20"
    pattern: new RegExp(`\\bsince\\s+(?:${MONTH}\\s+(\\d{1,2})(?:,?\\s+(\\d{4}))?|(\\d{4})-(\\d{2})-(\\d{2}))\\b`, 'i'),
    resolve: (m, now) => {
      const month = m[1] ? monthIndex(m[1]) : Number(m[5]) - 1;
      const day = Number(m[2] ?? m[6]);
      const year = m[3] ? Number(m[3]) : m[4] ? Number(m[4]) : yearFor(month, day, now);
      const start = validDay(year, month, day);
      return start === undefined ? undefined : { span: span(start, MAX_TIME_MS), newest: false };
    },
  },
  {
    pattern: new RegExp(`\\b${NAMED_SPANS}\\b`, 'i'),
    resolve: (m, now) => {
      const named = namedSpan(m[1]!, now);
      return named && { span: named, newest: false };
    },
  },
  {
    pattern: /\b(?:the\s+)?(?:last|latest|most recent)\s+time\b|\bmost recently\b/i,
    resolve: () => ({ newest: true }),
  },
];

/** The first time cue in a query, resolved against `now`; undefined when it has none. */
export function timeCueOf(query: string, now: number): TimeCue | undefined {
  for (const rule of RULES) {
    const match = rule.pattern.exec(query);
    if (!match) continue;
    const resolved = rule.resolve(match, now);
    if (!resolved) continue;
    const rest = `${query.slice(0, match.index)} ${query.slice(match.index + match[0].length)}`
      .replace(/\s+/g, ' ')
      .trim();
    return { ...resolved, rest, phrase: match[0] };
  }
  return undefined;
}
