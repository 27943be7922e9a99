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
     * How corrections are found; superseded memories are kept and invalidated softly
     * (`validTo`, `supersededBy`), and recall ranks them below what replaced them.
     * `rules` (default): the ids an input lists in `supersedes`, and the supersession rules —
     * a new memory that states another value for the same subject and attribute as an older
     * one of the same scope (where someone lives, a job, a diet, a rent, a tool, a schedule…;
     * see the README, "What is current") supersedes it, in world time (`validFrom`), so a
     * late-arriving older fact is superseded by the newer one already stored. `model`: the
     * rules, and for memories the rules read nothing in, the client's LanguageModel names the
     * older facts about the same entities that a new one makes no longer true. `marked`: only
     * the ids in `supersedes`.
     */
    corrections: z.enum(['rules', 'model', 'marked']).default('rules'),
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
