/**
 * Library defaults that doors with settings of their own (the OpenClaw plugin's config) take
 * instead of restating: each comes from the core option schema that owns it.
 *
 * @module
 */
import { procedureOptionsSchema } from '../core/procedures/procedure-options.js';
import { extractionOptionsSchema } from '../core/retain/conversation/extraction-options.js';

/** The conversation pipeline's setting schemas a door may take whole (bounds and default). */
export const extractionSettings = {
  /** Transcript characters per extraction call: the library's schema and default (8000). */
  maxChars: extractionOptionsSchema.shape.maxChars,
} as const;

/** The conversation pipeline's defaults. */
export const EXTRACTION_DEFAULTS = Object.freeze(extractionOptionsSchema.parse({}));

/** The procedure library's setting schemas a door may take whole (bounds and default). */
export const procedureSettings = {
  /** Fewest tool calls a run needs before it is learned from: the library's schema and default (3). */
  minToolCalls: procedureOptionsSchema.shape.minToolCalls,
} as const;

/** The procedure library's defaults (`minToolCalls` 3, `maxPerPrompt` 2). */
export const PROCEDURE_DEFAULTS = Object.freeze(procedureOptionsSchema.parse({}));
