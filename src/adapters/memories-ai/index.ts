/**
 * `memoir/memories-ai`: a {@link VideoProvider} over the Memories AI Video Datalake API, for
 * indexing screen recordings and searching them (`createMemory({ video: { provider } })`).
 *
 * @module
 */
export type { VideoProvider } from '../../core/spec/video-provider.js';
export { MEMORIES_AI_BASE_URL, type MemoriesAiOptions } from './memories-ai-options.js';
export { createMemoriesAiProvider, type MemoriesAiProvider } from './memories-ai-provider.js';
