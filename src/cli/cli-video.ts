/**
 * The `video` client options the CLI builds from the environment: Memories AI for search
 * (MEMORIES_AI_API_KEY, MEMORIES_AI_BASE_URL), ffmpeg for key frames, and the vision model
 * the `visionModel` setting names (`visionBaseUrl` for an OpenAI-compatible server);
 * without one, steps come from the provider's captions. `memoir procedures from-recording`
 * and `memoir mcp` (for memory_procedures_from_recording) share it.
 */
import type { VideoOptions } from '../core/procedures/recording-options.js';
import type { CliContext } from './cli-context.js';

/** True when the environment names a Memories AI key, so recordings can be searched. */
export function videoConfigured(context: CliContext): boolean {
  return Boolean(context.env.MEMORIES_AI_API_KEY?.trim());
}

/** The video options of the environment; the provider names what is missing when the key is not set. */
export async function videoOptionsFromEnv(context: CliContext): Promise<VideoOptions> {
  const { createMemoriesAiProvider } = await import('../adapters/memories-ai/index.js');
  const { createFfmpegFrameExtractor } = await import('../recorder/index.js');
  const { visionModel, visionBaseUrl } = context.config;
  return {
    provider: createMemoriesAiProvider({
      ...(context.env.MEMORIES_AI_API_KEY ? { apiKey: context.env.MEMORIES_AI_API_KEY } : {}),
      ...(context.env.MEMORIES_AI_BASE_URL ? { baseUrl: context.env.MEMORIES_AI_BASE_URL } : {}),
    }),
    frames: createFfmpegFrameExtractor(),
    ...(visionModel
      ? {
          visionModel: (await import('../adapters/openai/index.js')).createOpenAIChatModel({
            model: visionModel,
            env: context.env,
            ...(visionBaseUrl === null ? {} : { baseURL: visionBaseUrl }),
          }),
        }
      : {}),
  };
}
