import { z } from 'zod';
import { MEMORY_KINDS, type Scope, scopeSchema, timeInputSchema } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';

/** The filter options `recall` and `list` share. */
export const filterOptionFields = {
  /** Narrow the client's scope (a scoped client can never see outside its own). Default: the client's scope. */
  scope: scopeSchema.optional(),
  /** Only these kinds. */
  kinds: z.array(z.enum(MEMORY_KINDS)).min(1).optional(),
  /** Only these categories. */
  categories: z.array(z.string().min(1)).min(1).optional(),
  /** Only memories mentioning one of these entities (case-insensitive). */
  entities: z.array(z.string().min(1)).min(1).optional(),
  /** Only this session. */
  sessionId: z.string().min(1).optional(),
  /** Only memories that occurred at or after this time. */
  since: timeInputSchema.optional(),
  /** Only memories that occurred at or before this time. */
  until: timeInputSchema.optional(),
};

type FilterOptions = z.output<z.ZodObject<typeof filterOptionFields>> & { bookmarked?: boolean };

/**
 * The store filter for parsed `recall`/`list` options, with the scope already narrowed to
 * the client's (see `narrowScope`); `validAt` undefined includes invalidated memories.
 */
export function toStoreFilter(
  options: FilterOptions,
  scope: Scope | undefined,
  validAt: string | undefined,
): MemoryFilter {
  return {
    scope,
    kinds: options.kinds,
    categories: options.categories,
    entities: options.entities,
    sessionId: options.sessionId,
    since: options.since,
    until: options.until,
    bookmarked: options.bookmarked,
    validAt,
  };
}
