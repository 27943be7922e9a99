import { z } from 'zod';
import { MAX_TIME_MS, MEMORY_KINDS, MIN_TIME_MS, type Scope, scopeSchema, timeInputSchema } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';
import { hasTimeFormat, parseTime, relativeTimeMs, TIME_FORMATS } from '../utils/parse-time.js';
import { namedSpan } from '../utils/time-cues.js';
import { windowStart } from '../utils/undated.js';

/**
 * A bound of a time filter once parsed: an ISO instant, or a span before now (`30d` → 30
 * days) that {@link toStoreFilter} resolves against the engine's clock, which a schema cannot know.
 */
export type TimeBound = string | { readonly agoMs: number } | { readonly phrase: string; readonly end: boolean };

const TIME_BOUND_FORMATS = `${TIME_FORMATS}, a Date or epoch milliseconds`;

/**
 * A time bound as options take it. `endOfDay`: a bare date as an upper bound means the whole
 * of that day, as the CLI reads it.
 */
export const timeBoundSchema = (endOfDay: boolean) =>
  z.union([z.date(), z.string(), z.number()]).transform((value, ctx): TimeBound => {
    let input: Date | string | number = value;
    if (typeof value === 'string') {
      const ago = relativeTimeMs(value);
      if (ago !== undefined) return { agoMs: ago };
      // "last week", "yesterday", "3 days ago": a span resolved against the clock when used.
      if (namedSpan(value, 0) !== undefined) return { phrase: value, end: endOfDay };
      if (hasTimeFormat(value)) {
        try {
          input = parseTime(value, { endOfDay });
        } catch {
          ctx.addIssue({ code: 'custom', message: `expected ${TIME_BOUND_FORMATS}` });
          return z.NEVER;
        }
      }
      // Other text goes on to the rules `occurredAt` follows (any ISO 8601 form Date reads).
    }
    const parsed = timeInputSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    const message = typeof value === 'string' ? `expected ${TIME_BOUND_FORMATS}` : parsed.error.issues[0]!.message;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

/** The filter options `recall` and `list` share. */
export const filterOptionFields = {
  /** Narrow the client's scope (a scoped client can never see outside its own). Default: the client's scope. */
  scope: scopeSchema.optional(),
  /** Only these kinds. */
  kinds: z.array(z.enum(MEMORY_KINDS)).min(1).optional(),
  /** Only these categories. */
  categories: z.array(z.string().min(1)).min(1).optional(),
  /** Only memories mentioning one of these entities (case- and accent-insensitive: `zoe` finds `Zoë`). */
  entities: z.array(z.string().min(1)).min(1).optional(),
  /** Only this session. */
  sessionId: z.string().min(1).optional(),
  /**
   * Only memories that occurred at or after this time: a Date, epoch milliseconds, an ISO
   * date or date-time, a time before now such as `30d`, `12h`, `2w` or `15m`, or a named span such as
   * `last week`, `yesterday` or `3 days ago` (its start; by the client's clock).
   */
  since: timeBoundSchema(false).optional(),
  /**
   * Only memories that occurred at or before this time, in the forms `since` takes; a bare
   * date (`2025-11-30`) includes the whole of that day (UTC).
   */
  until: timeBoundSchema(true).optional(),
};

type FilterOptions = z.output<z.ZodObject<typeof filterOptionFields>> & { bookmarked?: boolean };

/** A time bound as the ISO instant a store compares, a relative one counted back from `now`. */
export function resolveTimeBound(bound: TimeBound, now: number): string;
export function resolveTimeBound(bound: TimeBound | undefined, now: number): string | undefined;
export function resolveTimeBound(bound: TimeBound | undefined, now: number): string | undefined {
  if (bound === undefined || typeof bound === 'string') return bound;
  if ('phrase' in bound) {
    const span = namedSpan(bound.phrase, now)!;
    return new Date(bound.end ? span.end : span.start).toISOString();
  }
  return new Date(Math.min(MAX_TIME_MS, Math.max(MIN_TIME_MS, now - bound.agoMs))).toISOString();
}

/**
 * The store filter for parsed `recall`/`list` options, with the scope already narrowed to
 * the client's (see `narrowScope`); `validAt` undefined includes invalidated memories, and
 * relative times count back from `now` (epoch milliseconds, the engine's clock).
 */
export function toStoreFilter(
  options: FilterOptions,
  scope: Scope | undefined,
  validAt: string | undefined,
  now: number,
): MemoryFilter {
  const until = resolveTimeBound(options.until, now);
  return {
    scope,
    kinds: options.kinds,
    categories: options.categories,
    entities: options.entities,
    sessionId: options.sessionId,
    // An undated memory (a workspace page's line with no date) is in no time window.
    since: windowStart(resolveTimeBound(options.since, now), until),
    until,
    bookmarked: options.bookmarked,
    validAt,
  };
}
