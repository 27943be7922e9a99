/**
 * Library defaults that doors with settings of their own (the OpenClaw plugin's config) take
 * instead of restating: each comes from the core option schema that owns it.
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
