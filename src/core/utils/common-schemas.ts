import { z } from 'zod';

/** Most items one call takes: memories to retain, ids to forget, a page of `list`. */
export const MAX_BATCH = 100_000;

/** A memory, session or record id. */
export const idSchema = z.string().min(1, 'expected a non-empty id').max(256);

/** One id or a non-empty list of them. */
export const idsSchema = z.union([idSchema, z.array(idSchema).min(1).max(MAX_BATCH)]);

/** `{ confirm: true }`, demanded by every operation that deletes or replaces data. */
export const confirmSchema = z
  .object({ confirm: z.literal(true, 'expected confirm: true — this cannot be undone') })
  .strict();
