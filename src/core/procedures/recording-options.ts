import { z } from 'zod';
import type { FrameExtractor } from '../spec/frame-extractor.js';
import type { LanguageModel } from '../spec/language-model.js';
import type { VideoProvider } from '../spec/video-provider.js';

const port = <T>(what: string, members: readonly string[]) =>
  z.custom<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      (value as { specificationVersion?: unknown }).specificationVersion === 'v1' &&
      members.every((member) => typeof (value as Record<string, unknown>)[member] === 'function'),
    { message: `expected a ${what} implementing specificationVersion 'v1' (members: ${members.join(', ')})` },
  );

/** The zod schema of {@link VideoOptions}, checked once when the client is made; each option is documented here. */
export const videoOptionsSchema = z
  .object({
    /** Where recordings are indexed and searched (e.g. `createMemoriesAiProvider()` from `memoir/memories-ai`). */
    provider: port<VideoProvider>('VideoProvider', ['upload', 'status', 'search', 'summary']),
    /** Takes key frames out of clips (`createFfmpegFrameExtractor()` from `memoir/recorder`). Without it, steps come from the provider's captions. */
    frames: port<FrameExtractor>('FrameExtractor', ['extract']).optional(),
    /** A vision-capable model that describes each action. Default: the client's `languageModel`. */
    visionModel: port<LanguageModel>('LanguageModel', ['generate']).optional(),
    /** Most key frames per clip (so at most one fewer model calls). Default 8. */
    maxFramesPerClip: z.number().int().min(2).max(60).default(8),
    /** Least scene-change score (0..1) for a frame to count as a key frame. Default 0.02 (screens change little between actions). */
    sceneThreshold: z.number().min(0).max(1).default(0.02),
    /**
     * Least similarity (0..1) of a query to an earlier one for its cached steps to be returned
     * without searching again. Default 0.85 for a semantic embedder, 0.6 for the lexical one (not calibrated).
     */
    cacheSimilarity: z.number().min(0).max(1).optional(),
    /** Deadline of each provider and frame-extraction call, ms. Default 60000. */
    timeoutMs: z.number().int().min(1).max(3_600_000).default(60_000),
  })
  .strict();

/**
 * Where procedures from screen recordings come from: `createMemory({ video: { … } })`.
 * Derived from its zod schema, where each option is documented once.
 *
 * @group Procedures
 */
export type VideoOptions = z.input<typeof videoOptionsSchema>;

/** Video options with defaults filled. */
export type ParsedVideoOptions = z.output<typeof videoOptionsSchema>;
