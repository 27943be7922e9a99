import { z } from 'zod';
import type { Embedder } from '../spec/embedder.js';
import type { LanguageModel } from '../spec/language-model.js';

const languageModelPort = z.custom<LanguageModel>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    (value as { specificationVersion?: unknown }).specificationVersion === 'v1' &&
    typeof (value as { generate?: unknown }).generate === 'function',
  { message: "expected a LanguageModel implementing specificationVersion 'v1' (members: id, generate)" },
);

/** The zod schema of {@link ProcedureOptions}, checked once when the client is made; each option is documented here. */
export const procedureOptionsSchema = z
  .object({
    /** Learn procedures from finished tasks. Default true; `false` makes `learn` schedule nothing (files stay readable). */
    enabled: z.boolean().default(true),
    /** Directory of the procedure files. Default `<home>/procedures` (`$MEMOIR_HOME/procedures`). */
    directory: z.string().min(1).optional(),
    /** The model that reflects on finished tasks and merges procedures. Default: the client's `languageModel`. */
    reflectionModel: languageModelPort.optional(),
    /** Fewest tool calls a task needs before it is worth reflecting on. Default 3. */
    minToolCalls: z.number().int().min(1).max(1000).default(3),
    /**
     * Least similarity (0..1) a procedure needs to be returned by `findRelevant`. Default 0.5 for
     * a semantic embedder; for the local lexical embedder the calibrated
     * {@link LEXICAL_PROCEDURE_THRESHOLDS} (README, "Procedures").
     */
    similarityThreshold: z.number().min(0).max(1).optional(),
    /**
     * Least similarity (0..1) at which a new reflection updates the stored procedure instead of
     * creating a file. Default 0.7 for a semantic embedder; calibrated for the lexical one.
     */
    updateThreshold: z.number().min(0).max(1).optional(),
    /** Procedures `findRelevant` returns by default (the seed's "top 1-2"). Default 2. */
    maxPerPrompt: z.number().int().min(1).max(50).default(2),
    /** Days without use after which `stale()` lists a procedure. Default 90. */
    staleAfterDays: z.number().positive().max(100_000).default(90),
  })
  .strict();

/**
 * Options of the procedure library: `createMemory({ procedures: { … } })`. Derived from
 * its zod schema, where each option is documented once.
 *
 * @group Procedures
 */
export type ProcedureOptions = z.input<typeof procedureOptionsSchema>;

/** Procedure options with defaults filled. */
export type ParsedProcedureOptions = z.output<typeof procedureOptionsSchema>;

/**
 * The two similarity thresholds of the procedure library.
 *
 * @group Procedures
 */
export interface ProcedureThresholds {
  /** Least similarity for `findRelevant`. */
  readonly similarity: number;
  /** Least similarity at which `learn` updates a stored procedure instead of creating one. */
  readonly update: number;
}

/**
 * Thresholds the seed gives for a neural embedder (all-MiniLM-L6-v2): retrieval 0.5, update 0.7.
 *
 * @group Procedures
 */
export const SEMANTIC_PROCEDURE_THRESHOLDS: ProcedureThresholds = Object.freeze({ similarity: 0.5, update: 0.7 });

/**
 * Thresholds for the local hashing embedder (`embedder.semantic === false`), measured by
 * `npm run bench:procedures` on 32 paraphrased requests of 8 kinds of task: its cosine for a
 * paraphrase that shares few words sits far below a neural model's, so the seed's 0.5 finds
 * a third of them. Retrieval 0.3 finds 69 % of same-kind requests with 2 false matches in 224
 * other-kind pairs (0.35: 63 %, none); update 0.4 lies mid-way between the highest other-kind
 * draft (0.25) and the lowest same-kind one (0.48).
 *
 * @group Procedures
 */
export const LEXICAL_PROCEDURE_THRESHOLDS: ProcedureThresholds = Object.freeze({ similarity: 0.3, update: 0.4 });

/** The thresholds in effect: the ones given, else the defaults for the embedder's kind. */
export function resolveProcedureThresholds(
  options: Pick<ParsedProcedureOptions, 'similarityThreshold' | 'updateThreshold'>,
  embedder: Pick<Embedder, 'semantic'>,
): ProcedureThresholds {
  const defaults = embedder.semantic === false ? LEXICAL_PROCEDURE_THRESHOLDS : SEMANTIC_PROCEDURE_THRESHOLDS;
  return {
    similarity: options.similarityThreshold ?? defaults.similarity,
    update: options.updateThreshold ?? defaults.update,
  };
}
