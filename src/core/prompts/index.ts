/**
 * The prompts of the extraction pipeline: extract memories from a conversation, decide
 * CREATE / MERGE / SKIP against similar stored memories, and merge two memories. Each
 * builder returns a JSON-mode `GenerateRequest` at temperature 0, and each output contract
 * has a zod schema to validate the answer with (see `generateStructured`).
 *
 * @module
 */
export {
  buildDedupPrompt,
  DEDUP_CONTRACT,
  DEDUP_DECISIONS,
  DEDUP_EXAMPLES,
  type DedupDecision,
  type DedupPromptInput,
  dedupDecisionSchema,
  MERGEABLE_CATEGORIES,
  type PromptMemoryText,
} from './dedup-prompt.js';
export {
  buildExtractionPrompt,
  dataBlock,
  dataRules,
  EXTRACTION_CONTRACT,
  EXTRACTION_EXAMPLES,
  type ExtractedMemory,
  type ExtractionCategory,
  type ExtractionOutput,
  type ExtractionPromptInput,
  escapePromptData,
  extractionOutputSchema,
  MEMORY_CATEGORIES,
  type PromptExample,
} from './extraction-prompt.js';
export {
  buildMergePrompt,
  MERGE_CONTRACT,
  MERGE_EXAMPLES,
  type MergeOutput,
  type MergePromptInput,
  mergeOutputSchema,
} from './merge-prompt.js';
