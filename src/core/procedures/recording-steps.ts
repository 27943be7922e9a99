import type { MemoryEngine } from '../engine/memory-engine.js';
import { NO_ACTION, stepFromAnswer, UI_ACTION_SYSTEM, uiActionMessage } from '../prompts/ui-action-prompt.js';
import type { RetainApi } from '../retain/retain-api.js';
import { ConfigError, MemoirError, ProviderError } from '../spec/errors.js';
import type { KeyFrame } from '../spec/frame-extractor.js';
import type { LanguageModel } from '../spec/language-model.js';
import type { Scope } from '../spec/memory.js';
import type { VideoClip } from '../spec/video-provider.js';
import { startDeadline, untilAborted } from '../utils/deadline.js';
import {
  type CachedResult,
  cacheRecording,
  findCachedRecording,
  nearestCachedRecordings,
  rememberCached,
  spanOf,
} from './recording-cache.js';
import type { ParsedVideoOptions } from './recording-options.js';
import type { RecordingProcedure } from './recording-types.js';

const COMPONENT = 'procedures.fromRecording';

type Drawn = CachedResult;

/** What `stepsFromRecording` works with besides the engine. */
export interface RecordingContext {
  /** Parsed `video` options, when a provider is configured. */
  video: ParsedVideoOptions | undefined;
  /** Stores the memory each result is recalled by. */
  retain: Pick<RetainApi, 'retain'>;
  /** The scope of the call: the client's, narrowed by the call's own. */
  scope: Scope | undefined;
  /** Least similarity for a cached result when there is no provider to ask (the procedures' threshold). */
  similarityThreshold: number;
}

/** Run one provider or extractor call under the video deadline, even if it ignores its signal. */
async function bounded<T>(timeoutMs: number, what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = startDeadline(
    timeoutMs,
    undefined,
    () => new ProviderError(`${what}: no answer within ${timeoutMs} ms`, { component: COMPONENT, retryable: true }),
  );
  try {
    return await untilAborted(call(deadline.signal), deadline.signal);
  } finally {
    deadline.dispose();
  }
}

/** The default cache threshold: paraphrases score far lower with the lexical embedder than with a neural one. */
export function defaultCacheSimilarity(semantic: boolean | undefined): number {
  return semantic === false ? 0.6 : 0.85;
}

/** Ask the vision model what happened between each pair of consecutive key frames; NONE answers are dropped. */
async function describeActions(model: LanguageModel, query: string, frames: readonly KeyFrame[], clipStartMs: number) {
  const steps: string[] = [];
  for (let i = 0; i + 1 < frames.length; i++) {
    const before = frames[i]!;
    const after = frames[i + 1]!;
    const answer = await model.generate({
      system: UI_ACTION_SYSTEM,
      messages: [
        uiActionMessage(
          query,
          { data: before.data, mediaType: before.mediaType },
          { data: after.data, mediaType: after.mediaType },
          (before.timeMs - clipStartMs) / 1000,
        ),
      ],
      temperature: 0,
      maxOutputTokens: 120,
    });
    const step = stepFromAnswer(answer.text);
    // The same action seen across three frames is one step.
    if (step !== null && step !== steps.at(-1)) steps.push(step);
  }
  return steps;
}

async function drawClip(
  engine: MemoryEngine,
  video: ParsedVideoOptions,
  model: LanguageModel | undefined,
  query: string,
  clip: VideoClip,
): Promise<Drawn> {
  const { provider } = video;
  const span = { startMs: clip.startMs, endMs: clip.endMs };
  const source = provider.clipSource
    ? await bounded(video.timeoutMs, 'clip source', (signal) => provider.clipSource!(clip.videoId, { ...span, signal }))
    : '';
  let steps: string[] = [];
  if (video.frames && model && source) {
    const frames = await bounded(video.timeoutMs, 'key frames', (signal) =>
      video.frames!.extract({
        source,
        ...span,
        maxFrames: video.maxFramesPerClip,
        sceneThreshold: video.sceneThreshold,
        signal,
      }),
    );
    steps = await describeActions(model, query, frames, clip.startMs);
  } else if (provider.caption) {
    // No frames or no vision model: the provider's captions of the span are the next best steps.
    const captions = await bounded(video.timeoutMs, 'captions', (signal) =>
      provider.caption!(clip.videoId, { ...span, signal }),
    );
    steps = captions.map((caption) => caption.text.trim()).filter((text) => text && text !== NO_ACTION);
  }
  const summary =
    clip.description ??
    (await bounded(video.timeoutMs, 'summary', (signal) => provider.summary(clip.videoId, { ...span, signal })).catch(
      (error: Error) => {
        engine.logger.log('warn', `no summary for ${clip.videoId}: ${error.message}`);
        return '';
      },
    ));
  const recordedAt = spanOf(clip.recordedAt, clip.startMs, clip.endMs);
  return {
    timestamp: recordedAt?.start ?? null,
    recordedAt,
    durationSeconds: (clip.endMs - clip.startMs) / 1000,
    confidence: clip.score,
    summary,
    steps,
    videoUrl: source,
    videoId: clip.videoId,
    videoStartMs: clip.startMs,
    videoEndMs: clip.endMs,
  };
}

/**
 * Steps for a task from the user's screen recordings: the cached answer of a similar earlier
 * query when there is one; otherwise search → clip → key frames → one vision-model call per
 * pair of consecutive frames → cache (a procedure record and a memory per result). A clip
 * that fails is logged and left out; only when every clip fails does the call reject, with
 * the first error. Without a video provider the cache is all there is: the cached results
 * closest to the query, and a ConfigError only when nothing was ever cached in the scope.
 */
export async function stepsFromRecording(
  engine: MemoryEngine,
  context: RecordingContext,
  query: string,
  options: { limit: number; refresh: boolean; search: boolean },
): Promise<RecordingProcedure[]> {
  const { scope } = context;
  // A caller who may not search the recordings gets the cache of its own scope, nothing more.
  const video = options.search ? context.video : undefined;
  await engine.ready(COMPONENT);
  const [vector] = await engine.embed([query], COMPONENT);
  const threshold = video?.cacheSimilarity ?? defaultCacheSimilarity(engine.embedder.semantic);
  if (!options.refresh || !video) {
    const cached = await findCachedRecording(engine, scope, vector!, threshold, options.limit);
    if (cached) return rememberCached(engine, context.retain, scope, cached);
  }
  if (!video) {
    const nearest = await nearestCachedRecordings(engine, scope, vector!, context.similarityThreshold, options.limit);
    if (nearest) return rememberCached(engine, context.retain, scope, nearest);
    if (!options.search && context.video)
      throw new ConfigError('no steps cached for this request, and this call may not search the recordings', {
        component: COMPONENT,
        field: 'search',
        suggestion: 'Ask the owner of the recordings to look it up: their call searches them.',
      });
    throw new ConfigError('no video provider', {
      component: COMPONENT,
      field: 'video.provider',
      suggestion:
        'Pass createMemory({ video: { provider, frames } }): createMemoriesAiProvider() of memoir/memories-ai and createFfmpegFrameExtractor() of memoir/recorder.',
      // Each door names its own setting (an env variable, a plugin config key), not createMemory.
      hint: { code: 'video' },
    });
  }
  const model = video.visionModel ? engine.boundModel(video.visionModel) : engine.languageModel;
  const clips = await bounded(video.timeoutMs, 'search', (signal) =>
    video.provider.search({ text: query, limit: options.limit, signal }),
  );
  const drawn: Drawn[] = [];
  let firstError: unknown;
  for (const clip of clips.slice(0, options.limit)) {
    try {
      drawn.push(await drawClip(engine, video, model, query, clip));
    } catch (error) {
      firstError ??= error;
      engine.logger.log(
        'warn',
        `no steps from clip ${clip.videoId}@${clip.startMs}-${clip.endMs}: ${(error as Error).message}`,
      );
    }
  }
  if (drawn.length === 0 && firstError !== undefined) {
    throw MemoirError.isInstance(firstError)
      ? firstError
      : new ProviderError(`steps from recording failed: ${(firstError as Error).message}`, {
          component: COMPONENT,
          cause: firstError,
        });
  }
  return cacheRecording(engine, context.retain, scope, query, vector!, drawn);
}
