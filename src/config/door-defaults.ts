/**
 * Library defaults that doors with settings of their own (the OpenClaw plugin's config) take
 * instead of restating, for options that are no setting of the registry: each comes from the
 * core option schema that owns it. (A door takes a setting's schema and default from its row
 * in setting-registry.ts.)
 *
 * @module
 */
import { extractionOptionsSchema } from '../core/retain/conversation/extraction-options.js';

/** The conversation pipeline's setting schemas a door may take whole (bounds and default). */
export const extractionSettings = {
  /** Transcript characters per extraction call: the library's schema and default (8000). */
  maxChars: extractionOptionsSchema.shape.maxChars,
} as const;

/** The conversation pipeline's defaults. */
export const EXTRACTION_DEFAULTS = Object.freeze(extractionOptionsSchema.parse({}));
