/**
 * Old names of options, still accepted. One vocabulary runs through every door (`k` for the
 * size of a ranked answer, `limit`/`offset` for pages, `since`/`until`/`asOf` for time,
 * `confirm` for what deletes; docs/vocabulary.md), so a name that said the same thing
 * differently is renamed, and the old one keeps working: it is moved to the new name before
 * the schema sees the input, the caller is told once, and passing both with different values
 * is refused rather than picking one silently.
 */
import { ValidationError } from '../spec/errors.js';
import type { Logger } from '../spec/runtime.js';
import { describeReceived } from './validate.js';

/** One renamed option: `from` is the old name, `to` the one to use. */
export interface RenamedOption {
  /** The old name, still accepted. */
  readonly from: string;
  /** The name to use. */
  readonly to: string;
}

/** The input with old names moved to new ones, and which old names it used. */
export interface RenamedInput {
  /** A shallow copy with every old name replaced by its new one (the input itself when none was used). */
  readonly input: unknown;
  /** The renames the input used, in the order given. */
  readonly used: readonly RenamedOption[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Same value for the rename's purpose: equal JSON (numbers, strings, arrays of them). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** `options.topK`, or `topK` without a prefix. */
const dotted = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

/**
 * Move old option names to their new ones. An old name given alone is moved; given with the
 * new one and the same value it is dropped; with a different value the call is refused with
 * a ValidationError naming both (nothing is guessed).
 *
 * @param input - The options as the caller passed them (anything: non-objects pass through).
 * @param renames - The door's renames, in its own spelling (`topK` → `k`, `top_k` → `k`).
 * @param where - The component for the error, and the prefix of its field (`options`).
 * @returns The input with new names, and the renames used.
 */
export function applyRenames(
  input: unknown,
  renames: readonly RenamedOption[],
  where: { component: string; fieldPrefix?: string },
): RenamedInput {
  if (!isRecord(input)) return { input, used: [] };
  const used = renames.filter((rename) => Object.hasOwn(input, rename.from) && input[rename.from] !== undefined);
  if (used.length === 0) return { input, used };
  const prefix = where.fieldPrefix ?? '';
  const conflicts = used.filter(
    (rename) => input[rename.to] !== undefined && !sameValue(input[rename.to], input[rename.from]),
  );
  if (conflicts.length > 0) {
    const first = conflicts[0]!;
    throw new ValidationError(
      conflicts.map((rename) => ({
        field: dotted(prefix, rename.from),
        message: `${rename.from} is the old name of ${rename.to}, and both were given with different values (${describeReceived(input[rename.from])} and ${describeReceived(input[rename.to])})`,
      })),
      {
        component: where.component,
        suggestion: `Pass only ${first.to} (${first.from} is its old name).`,
        hint: { code: 'renamed', field: first.from, to: first.to },
      },
    );
  }
  const out: Record<string, unknown> = { ...input };
  for (const rename of used) {
    if (out[rename.to] === undefined) out[rename.to] = out[rename.from];
    delete out[rename.from];
  }
  return { input: out, used };
}

/** The sentence that says an old name still works: "topK is now k; topK still works for now". */
export function renamedNote(used: readonly RenamedOption[]): string {
  return used.map((rename) => `${rename.from} is now ${rename.to} (${rename.from} still works for now)`).join('; ');
}

// Which old names each logger has already warned about: the library says it once per client, not per call.
const warned = new WeakMap<Logger, Set<string>>();

/**
 * Tell the caller, once per logger and old name, that an old option name was used.
 *
 * @param logger - The client's logger.
 * @param component - The call, e.g. `procedures.findRelevant`.
 * @param used - What {@link applyRenames} reported.
 */
export function warnRenamed(logger: Logger, component: string, used: readonly RenamedOption[]): void {
  if (used.length === 0) return;
  let seen = warned.get(logger);
  if (!seen) {
    seen = new Set();
    warned.set(logger, seen);
  }
  for (const rename of used) {
    const key = `${component}:${rename.from}`;
    if (seen.has(key)) continue;
    seen.add(key);
    logger.log('warn', `${component}: the option ${rename.from} is deprecated; use ${rename.to}`, {
      deprecated: rename.from,
      use: rename.to,
    });
  }
}
