/** Parsers for option values; a bad value is a commander InvalidArgumentError (exit code 2). */

import { type Command, InvalidArgumentError } from 'commander';
import type { MemoirConfig } from '../config/memoir-config.js';
import { parseSettingText, SETTING_NAMES, type Setting, specOf } from '../config/setting-registry.js';
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

// The settings a global flag sets for one run, from the registry. `--home` is declared by the
// program itself (with its own help); the others are `--` plus the setting's name in kebab-case.
const FLAGGED = SETTING_NAMES.flatMap((setting) => {
  const flag = specOf(setting).flag;
  return flag === undefined ? [] : [{ setting, flag }];
});

/** commander's key for a flag: `--retention-days` → `retentionDays`. */
const keyOf = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** A flag's value, parsed and checked as the environment variable of the same setting is. */
export function settingFlag(setting: Setting) {
  const spec = specOf(setting);
  return (raw: string): unknown => {
    const value = parseSettingText(setting, raw);
    if (value === undefined || !spec.schema.safeParse(value).success) {
      throw new InvalidArgumentError(`${setting} must be ${spec.expects}, e.g. ${spec.example}.`);
    }
    return value;
  };
}

/** Declare the global flags of the settings registry that `program` does not declare itself. */
export function addSettingFlags(program: Command): Command {
  for (const { setting, flag } of FLAGGED) {
    if (program.options.some((option) => option.long === flag)) continue;
    const spec = specOf(setting);
    program.option(
      `${flag} <value>`,
      `${setting} for this run: ${spec.expects} (default: $${spec.env}, else config.json, else ${JSON.stringify(spec.default)})`,
      settingFlag(setting),
    );
  }
  return program;
}

/** The settings the global flags set, from commander's parsed options (`--home` included). */
export function settingsFromFlags(options: Readonly<Record<string, unknown>>): Partial<MemoirConfig> {
  const settings: Record<string, unknown> = {};
  for (const { setting, flag } of FLAGGED) {
    const value = options[keyOf(flag)];
    if (value !== undefined) settings[setting] = value;
  }
  return settings as Partial<MemoirConfig>;
}
