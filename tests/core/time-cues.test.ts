import { describe, expect, it } from 'vitest';
import { namedSpan, timeCueOf } from '../../src/core/utils/time-cues.js';

// Wednesday 2025-12-03, noon UTC.
const NOW = Date.parse('2025-12-03T12:00:00Z');
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function cue(query: string) {
  const found = timeCueOf(query, NOW);
  return (
    found && { since: iso(found.span?.start), until: iso(found.span?.end), newest: found.newest, rest: found.rest }
  );
}

describe('time cues', () => {
  it('"around" a day is a few days either side; "on" is the day; a missing year is the latest past one', () => {
    expect(cue('what happened around Nov 27')).toEqual({
      since: '2025-11-24T00:00:00.000Z',
      until: '2025-11-30T23:59:59.999Z',
      newest: false,
      rest: 'what happened',
    });
    expect(cue('what did we ship on 27 November 2024?')).toMatchObject({
      since: '2024-11-27T00:00:00.000Z',
      until: '2024-11-27T23:59:59.999Z',
    });
    // December 20 has not come yet this year, so it is last year's.
    expect(cue('around Dec 20')?.since).toBe('2024-12-17T00:00:00.000Z');
    expect(cue('around 2025-11-27')?.until).toBe('2025-11-30T23:59:59.999Z');
  });

  it('months, years, weeks and "since"', () => {
    expect(cue('what was true during Nov 2025?')).toMatchObject({
      since: '2025-11-01T00:00:00.000Z',
      until: '2025-11-30T23:59:59.999Z',
    });
    expect(cue('trips in 2024')).toMatchObject({
      since: '2024-01-01T00:00:00.000Z',
      until: '2024-12-31T23:59:59.999Z',
    });
    expect(cue('what changed since last week')).toMatchObject({
      since: '2025-11-24T00:00:00.000Z',
      until: '9999-12-31T23:59:59.999Z',
    });
    expect(cue('what did we do last week')).toMatchObject({
      since: '2025-11-24T00:00:00.000Z',
      until: '2025-11-30T23:59:59.999Z',
    });
    expect(cue('since Nov 20')?.since).toBe('2025-11-20T00:00:00.000Z');
    expect(cue('yesterday')?.since).toBe('2025-12-02T00:00:00.000Z');
    expect(namedSpan('last month', NOW)).toEqual({
      start: Date.parse('2025-11-01T00:00:00Z'),
      end: Date.parse('2025-12-01T00:00:00Z') - 1,
    });
  });

  it('"last time" asks for the newest; no cue, an impossible date or a modal "may" is not a cue', () => {
    expect(cue('last time we tried the backoff fix')).toEqual({
      since: undefined,
      until: undefined,
      newest: true,
      rest: 'we tried the backoff fix',
    });
    expect(cue('how do I restart the gateway')).toBeUndefined();
    expect(cue('around Feb 30')).toBeUndefined();
    expect(cue('it may rain')).toBeUndefined();
  });
});
