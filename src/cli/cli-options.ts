/** Parsers for option values; a bad value is a commander InvalidArgumentError (exit code 2). */

import { InvalidArgumentError } from 'commander';
import { MEMORY_KINDS, type MemoryKind } from '../core/spec/memory.js';
import { namedSpan } from '../core/utils/time-cues.js';
import { parseTime, TimeParseError } from './cli-time.js';

/** A whole number from `min` to `max`. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const number = /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`expected a whole number ${range}.`);
    }
    return number;
  };
}

/** A number from 0 to 1. */
export function unitInterval(value: string): number {
  const number = /^\s*(\d+\.?\d*|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 1)) throw new InvalidArgumentError('expected a number from 0 to 1, e.g. 0.8.');
  return number;
}

/** A time (see cli-time.ts) as an ISO string; `endOfDay` makes a bare date mean its last millisecond. */
export function time(now: () => number, endOfDay = false) {
  return (value: string): string => {
    const span = namedSpan(value, now());
    if (span) return new Date(endOfDay ? span.end : span.start).toISOString();
    try {
      return parseTime(value, { now: now(), endOfDay }).toISOString();
    } catch (error) {
      if (error instanceof TimeParseError) throw new InvalidArgumentError(`${error.message}.`);
      throw error;
    }
  };
}

/** One of the memory kinds. */
export function kind(value: string): MemoryKind {
  if (!(MEMORY_KINDS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${MEMORY_KINDS.join(', ')}.`);
  }
  return value as MemoryKind;
}

/** A non-empty string (after trimming). */
export function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a non-empty value.');
  return value;
}

/** Make a parser collect every occurrence of a repeatable option into an array. */
export function repeatable<T>(parse: (value: string) => T) {
  return (value: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(value)];
}
