/** Time ranges a line states in its own words: "Nov 27–Dec 1, 2025", "2025-11-27 to 2025-12-01". */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?';
const DASH = '\\s*(?:–|—|-|to|until)\\s*';

// "Nov 27–Dec 1, 2025", "Nov 27–30, 2025", "Nov 27, 2025".
const NAMED = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:${DASH}(?:${MONTH}\\s+)?(\\d{1,2}))?,?\\s+(\\d{4})\\b`, 'i');
// "2025-11-27", "2025-11-27–2025-12-01", "2025-11-27 to 2025-12-01".
const ISO = /\b(\d{4})-(\d{2})-(\d{2})(?:\s*(?:–|—|to|until|\/)\s*(\d{4})-(\d{2})-(\d{2}))?\b/i;

/** A stated time range: both ends as ISO instants (the end is the last millisecond of its day). */
export interface StatedRange {
  /** Start of the first day. */
  start: string;
  /** End of the last day. */
  end: string;
}

/** What a line states about its time: a range, a date that does not exist, or nothing. */
export type StatedTime = { range: StatedRange } | { broken: string } | undefined;

function dayStart(year: number, month: number, day: number): number | undefined {
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  // Date.UTC rolls Feb 30 over into March; a date that rolls over does not exist.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return ms;
}

function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function rangeOf(text: string, from: [number, number, number], to: [number, number, number]): StatedTime {
  const start = dayStart(...from);
  let end = dayStart(...to);
  if (start === undefined || end === undefined) return { broken: text };
  // "Dec 28–Jan 2, 2026": the range crosses a year end, so its start is in the year before.
  if (end < start && from[0] === to[0]) {
    const earlier = dayStart(from[0] - 1, from[1], from[2]);
    if (earlier === undefined) return { broken: text };
    return { range: { start: new Date(earlier).toISOString(), end: new Date(end + 86_399_999).toISOString() } };
  }
  if (end < start) return { broken: text };
  end += 86_399_999;
  return { range: { start: new Date(start).toISOString(), end: new Date(end).toISOString() } };
}

/** The first time range or date the text states, if any. */
export function statedTime(text: string): StatedTime {
  const named = NAMED.exec(text);
  if (named) {
    const [whole, month1, day1, month2, day2, year] = named as unknown as [
      string,
      string,
      string,
      string | undefined,
      string | undefined,
      string,
    ];
    const y = Number(year);
    const m1 = monthNumber(month1);
    const m2 = month2 ? monthNumber(month2) : m1;
    const d2 = day2 ? Number(day2) : Number(day1);
    return rangeOf(whole, [y, m1, Number(day1)], [y, m2, d2]);
  }
  const iso = ISO.exec(text);
  if (iso) {
    const [whole, y1, m1, d1, y2, m2, d2] = iso as unknown as [
      string,
      string,
      string,
      string,
      string?,
      string?,
      string?,
    ];
    const from: [number, number, number] = [Number(y1), Number(m1), Number(d1)];
    const to: [number, number, number] = y2 ? [Number(y2), Number(m2), Number(d2)] : from;
    return rangeOf(whole, from, to);
  }
  return undefined;
}
