import { z } from 'zod';
import type { MemorySkippedEvent } from '../engine/events.js';
import type { Memory } from '../spec/memory.js';

/** Options of `retain`. */
export const retainOptionsSchema = z
  .object({
    /** What to do with an input identical to a stored, valid memory. Default `skip`. */
    onDuplicate: z.enum(['skip', 'keep']).default('skip'),
    /**
     * Index each memory with the text of up to this many neighbours on either side, among
     * the inputs of this call that share its session and scope, in input order — for the
     * turns of a conversation, so a turn is found by what was said around it. Inputs with
     * their own `context` keep it. Default 0 (off).
     */
    contextWindow: z.number().int().min(0).max(20).default(0),
    /**
     * How corrections are found. `marked` (default): only the ids an input lists in
     * `supersedes`. `model`: the client's LanguageModel also reads each new memory against the
     * newest older ones about the same entities and names those it makes no longer true (same
     * entity and attribute, e.g. "moved to Lisbon" after "lives in Berlin"); they are
     * invalidated softly (`validTo`, `supersededBy`).
     */
    corrections: z.enum(['marked', 'model']).default('marked'),
  })
  .strict();

/**
 * Options of `retain`.
 *
 * @group Retain
 */
export type RetainOptions = z.input<typeof retainOptionsSchema>;

/**
 * What `retain` resolves to.
 *
 * @group Retain
 */
export interface RetainResult {
  /** One id per input, in input order: the new memory's id, or for a skipped duplicate the id of the memory it duplicates. */
  ids: string[];
  /** The memories stored by this call. */
  memories: Memory[];
  /** Inputs that were not stored, and why. */
  skipped: MemorySkippedEvent[];
}
