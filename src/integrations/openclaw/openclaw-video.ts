import { createMemoriesAiProvider } from '../../adapters/memories-ai/index.js';
import { createOpenAIChatModel } from '../../adapters/openai/index.js';
import { type Environment, processEnvironment } from '../../config/setting-registry.js';
import type { VideoOptions } from '../../index.js';
import { createFfmpegFrameExtractor } from '../../recorder/index.js';
import type { ParsedOpenClawConfig } from './openclaw-config.js';
import { resolveSecret } from './openclaw-config.js';

// The plugin's video provider (seed 000): what memory_recall_steps searches. The `video` key
// names Memories AI (its key as a literal or `${NAME}`), the vision model, and the request
// rate; without the key, the environment's MEMORIES_AI_API_KEY turns it on the way
// `memoir mcp` does, so a gateway started with that variable needs no config. Without a key
// at all there is no provider, and memory_recall_steps answers from steps already cached.

/** The vision model's deadline: it looks at two frames per call, on a possibly slow local model. */
const VISION_TIMEOUT_MS = 60_000;

/** The `video` client options of the plugin's config, or undefined (with the reason in `offline`). */
export function videoOf(
  config: ParsedOpenClawConfig,
  offline: string[],
  env: Environment = processEnvironment(),
): VideoOptions | undefined {
  const section = config.video;
  const configured = resolveSecret(section?.apiKey, env);
  const apiKey = configured.value ?? (section?.apiKey === undefined ? env.MEMORIES_AI_API_KEY?.trim() : undefined);
  if (!apiKey) {
    // Said only when video was asked for: a plugin without the key is the common case.
    if (section !== undefined) {
      const why =
        configured.value === undefined && configured.missing
          ? `${configured.missing} is not set`
          : 'no video.apiKey and MEMORIES_AI_API_KEY is not set';
      offline.push(`no Memories AI key (${why}): memory_recall_steps answers from steps already cached`);
    }
    return undefined;
  }
  const baseUrl = section?.baseUrl ?? env.MEMORIES_AI_BASE_URL?.trim();
  const vision = section?.vision;
  const visionKey = resolveSecret(vision?.apiKey, env);
  if (vision !== undefined && visionKey.value === undefined && vision.baseUrl === undefined) {
    offline.push(
      `no API key or baseUrl for video.vision${visionKey.missing ? ` (${visionKey.missing} is not set)` : ''}: the llm model names the steps`,
    );
  }
  const visionModel =
    vision !== undefined && (visionKey.value !== undefined || vision.baseUrl !== undefined)
      ? createOpenAIChatModel({
          model: vision.model,
          ...(visionKey.value === undefined ? {} : { apiKey: visionKey.value }),
          ...(vision.baseUrl === undefined ? {} : { baseURL: vision.baseUrl }),
          timeoutMs: VISION_TIMEOUT_MS,
        })
      : undefined;
  return {
    provider: createMemoriesAiProvider({
      apiKey,
      ...(baseUrl ? { baseUrl } : {}),
      ...(section?.requestsPerSecond === undefined
        ? {}
        : { minIntervalMs: Math.round(1000 / section.requestsPerSecond) }),
    }),
    frames: createFfmpegFrameExtractor(),
    ...(visionModel ? { visionModel } : {}),
  };
}
