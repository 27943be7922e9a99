import { z } from 'zod';
import { ValidationError } from '../spec/errors.js';
import { parseInput } from './validate.js';

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

/**
 * Parse the `{ confirm: true }` of a call that deletes or replaces data; a refusal carries the
 * `confirm` hint, so each door names its own way to confirm (`--confirm`, `confirm: true`).
 *
 * @param input - The call's options.
 * @param component - The call, e.g. `restore`.
 * @returns The parsed options.
 */
export function parseConfirm(input: unknown, component: string): z.output<typeof confirmSchema> {
  try {
    return parseInput(confirmSchema, input ?? {}, component, 'options');
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    throw new ValidationError(error.issues, {
      component,
      suggestion: `Pass { confirm: true } to ${component} once the user agreed.`,
      hint: { code: 'confirm' },
    });
  }
}
