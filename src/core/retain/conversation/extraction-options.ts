import { z } from 'zod';

/** Settings of the conversation pipeline (`retain({ messages })` with a language model). */
export const extractionOptionsSchema = z
  .object({
    /** Fewest messages worth extracting from; shorter conversations are kept as episodes. Default 4. */
    minMessages: z.number().int().min(1).max(10_000).default(4),
    /** Transcript characters sent to the model, newest messages kept. Default 8000. */
    maxChars: z.number().int().min(200).max(1_000_000).default(8000),
    /**
     * Cosine similarity from which a stored memory may be a duplicate (the model then decides).
     * Default: 0.7 with a semantic embedder, 0.4 with the local hashing one (dedup-threshold.ts).
     */
    similarityThreshold: z.number().min(-1).max(1).optional(),
    /** Possible duplicates shown to the dedup decision. Default 5. */
    maxMatches: z.number().int().min(1).max(50).default(5),
    /** Retries after an unusable model answer (the error is shown to the model). Default 1. */
    retries: z.number().int().min(0).max(5).default(1),
  })
  .strict();
/**
 * Extraction settings as accepted (all optional).
 *
 * @group Retain
 */
export type ExtractionOptions = z.input<typeof extractionOptionsSchema>;
/** Extraction settings with defaults filled. */
export type ParsedExtractionOptions = z.output<typeof extractionOptionsSchema>;
