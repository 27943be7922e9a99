import { describe, expect, it } from 'vitest';
import { parseTime, TimeParseError } from '../../src/cli/cli-time.js';

const NOW = Date.parse('2025-12-01T12:00:00.000Z');
const at = (text: string, endOfDay = false) => parseTime(text, { now: NOW, endOfDay }).toISOString();

describe('parseTime', () => {
  it.each([
    ['30d', '2025-11-01T12:00:00.000Z'],
    ['12h', '2025-12-01T00:00:00.000Z'],
    ['2w', '2025-11-17T12:00:00.000Z'],
    ['15m', '2025-12-01T11:45:00.000Z'],
    ['90s', '2025-12-01T11:58:30.000Z'],
    ['1.5h', '2025-12-01T10:30:00.000Z'],
    ['0d', '2025-12-01T12:00:00.000Z'],
    ['now', '2025-12-01T12:00:00.000Z'],
  ])('reads the relative time %s as that long before now', (text, expected) => {
    expect(at(text)).toBe(expected);
  });

  it('reads a bare date as the start of that UTC day, or its end with endOfDay', () => {
    expect(at('2025-11-30')).toBe('2025-11-30T00:00:00.000Z');
    expect(at('2025-11-30', true)).toBe('2025-11-30T23:59:59.999Z');
    expect(at('2024-02-29', true)).toBe('2024-02-29T23:59:59.999Z');
  });

  it('reads ISO date-times, UTC unless they carry an offset, and ignores endOfDay for them', () => {
    expect(at('2025-11-30T10:00:00Z')).toBe('2025-11-30T10:00:00.000Z');
    expect(at('2025-11-30T10:00:00.123Z', true)).toBe('2025-11-30T10:00:00.123Z');
    expect(at('2025-11-30T10:00')).toBe('2025-11-30T10:00:00.000Z');
    expect(at('2025-11-30 10:00:00')).toBe('2025-11-30T10:00:00.000Z');
    expect(at('2025-11-30T10:00:00+02:00')).toBe('2025-11-30T08:00:00.000Z');
    expect(at('2025-11-30T10:00:00-0130')).toBe('2025-11-30T11:30:00.000Z');
  });

  it.each([
    'yesterday-ish',
    'yesterday',
    '',
    '30',
    'd30',
    '30 days',
    '-3d',
    '3M',
    '3y',
    '2025-02-30',
    '2025-13-01',
    '2025-11-30T25:00Z',
    '2025-11-30T10:00:00+2',
    '11/30/2025',
    '1764496800000',
  ])('rejects %j, naming the accepted formats', (text) => {
    expect(() => parseTime(text, { now: NOW })).toThrow(TimeParseError);
    expect(() => parseTime(text, { now: NOW })).toThrow(/30d, 12h, 2w or 15m.*2025-11-30/);
  });

  it('defaults to the current time', () => {
    const before = Date.now();
    const parsed = parseTime('1h').getTime();
    expect(parsed).toBeGreaterThanOrEqual(before - 3_600_000);
    expect(parsed).toBeLessThanOrEqual(Date.now() - 3_600_000);
  });
});
