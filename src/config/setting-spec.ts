/**
 * The shape of one row of the settings registry (src/config/setting-registry.ts), and the
 * helpers the rows are written with.
 *
 * @module
 */
import { z } from 'zod';

/**
 * How a text value (an environment variable or a CLI flag) becomes the setting's value:
 * `path`, `name` and `text` are trimmed, `lowercase` is trimmed and lower-cased (enums),
 * `number` and `boolean` are parsed. `text`, `lowercase` and `number` read empty or `null` as
 * `null` where the setting accepts it; `path` and `name` (a scope's user, agent or namespace,
 * which may well be called "null") read empty as unset and take every other text as it is.
 */
export type SettingText = 'path' | 'name' | 'text' | 'lowercase' | 'number' | 'boolean';

/** One row of the registry. Its "what it does" is the JSDoc comment on the row in SETTINGS. */
export interface SettingSpec<S extends z.ZodType = z.ZodType> {
  /** The value's schema; accepts `null` where `null` means "none" or "no limit". */
  schema: S;
  /** The value when no source sets it. */
  default: z.output<S>;
  /** How a text value (environment, flag) is parsed. */
  text: SettingText;
  /** Environment variable, e.g. `MEMOIR_RETENTION_DAYS`. */
  env: string;
  /** Older variables read when {@link env} is unset. */
  envAliases?: readonly string[];
  /**
   * `false`: the config file may not hold it (a secret such as the MCP server's token, read
   * from the environment only). Otherwise its key in config.json is the setting's name.
   */
  file?: false;
  /** A section of the config file that may hold it too, e.g. `procedures` → `"procedures": { "min_tool_calls": 3 }`. */
  section?: { name: 'procedures' | 'schedule'; key: string };
  /** The global `memoir` flag that sets it for one run, e.g. `--retention-days`. */
  flag?: `--${string}`;
  /** The createMemory option it becomes (dotted path), e.g. `procedures.minToolCalls`. */
  option?: string;
  /** Who reads it, when it is not a createMemory option. */
  readBy?: string;
  /** What it expects, in the words of an error message. */
  expects: string;
  /** A valid value, as it is written in the environment. */
  example: string;
  /** A bad value might be a secret pasted in the wrong place: errors don't show it. */
  secret?: boolean;
  /** The value itself is a secret (a bearer token): printed lists and errors show `***`. */
  redact?: boolean;
}

/** The option's own schema and default: `x.default(d)` → x and d; `x.optional()` → x.nullable() and null. */
export function fromOption<S extends z.ZodType>(field: z.ZodDefault<S>): { schema: S; default: z.output<S> };
export function fromOption<S extends z.ZodType>(field: z.ZodOptional<S>): { schema: z.ZodNullable<S>; default: null };
export function fromOption(field: z.ZodDefault<z.ZodType> | z.ZodOptional<z.ZodType>): {
  schema: z.ZodType;
  default: unknown;
} {
  if (field instanceof z.ZodDefault) return { schema: field.unwrap(), default: field.parse(undefined) };
  return { schema: field.unwrap().nullable(), default: null };
}

/** A row, typed by its schema. */
export const defineSetting = <S extends z.ZodType>(spec: SettingSpec<S>): SettingSpec<S> => spec;

/** "one of "a", "b"", for `expects`. */
export const oneOf = (values: readonly string[]): string => `one of ${values.map((value) => `"${value}"`).join(', ')}`;
