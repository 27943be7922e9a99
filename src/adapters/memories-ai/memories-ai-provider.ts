import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { z } from 'zod';
import { ProviderError, ValidationError } from '../../core/spec/errors.js';
import type { VideoProvider, VideoSpanOptions, VideoState, VideoStatus } from '../../core/spec/video-provider.js';
import { MemoriesAiHttp } from './memories-ai-http.js';
import { type MemoriesAiOptions, parseMemoriesAiOptions } from './memories-ai-options.js';
import {
  captionAnswer,
  clipAnswer,
  collectionsAnswer,
  createdCollectionAnswer,
  searchAnswer,
  summaryAnswer,
  uploadAnswer,
  videoAnswer,
} from './memories-ai-wire.js';

const COMPONENT = 'memories-ai';

/**
 * A {@link VideoProvider} over Memories AI, with the polling helper the uploader and the CLI use.
 *
 * @group Adapters
 */
export interface MemoriesAiProvider extends VideoProvider {
  /** Poll `status` until the video is `ready` or `failed`, or `timeoutMs` passes (then it resolves with the last status). */
  waitUntilIndexed(
    videoId: string,
    options?: { timeoutMs?: number; intervalMs?: number; signal?: AbortSignal },
  ): Promise<VideoStatus>;
}

function checked<T extends z.ZodType>(schema: T, value: unknown, operation: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ProviderError(`${operation}: unexpected answer (${parsed.error.issues[0]?.message ?? 'invalid'})`, {
    component: COMPONENT,
    retryable: false,
    suggestion: 'The service answered in a shape this adapter does not know: check baseUrl, or update memoir.',
  });
}

function stateOf(status: string): VideoState {
  const value = status.toLowerCase();
  if (value === 'ready' || value === 'indexed' || value === 'done') return 'ready';
  if (value === 'failed' || value === 'cancelled' || value === 'error') return 'failed';
  if (value === 'uploading' || value === 'pending_upload') return 'uploading';
  return 'processing';
}

const span = (options: VideoSpanOptions | undefined) => ({
  start: options?.startMs === undefined ? undefined : options.startMs / 1000,
  end: options?.endMs === undefined ? undefined : options.endMs / 1000,
});

const videoPath = (videoId: string) => `/videos/${encodeURIComponent(videoId)}`;

/**
 * Memories AI's Video Datalake as a {@link VideoProvider}: multipart upload into a collection
 * (with an idempotency key), indexing status, moment search with modes and top-k, summary,
 * captions and clip links. The key goes raw in `Authorization`; requests are spaced by
 * `minIntervalMs` (about one per second is what the API allows); each has a deadline.
 * Times on the wire are seconds, in memoir milliseconds.
 *
 * @example
 * ```ts
 * const video = createMemoriesAiProvider({ apiKey: process.env.MEMORIES_AI_API_KEY });
 * const clips = await video.search({ text: 'adding an SSH key on GitHub', limit: 3 });
 * ```
 *
 * @group Adapters
 */
export function createMemoriesAiProvider(options?: MemoriesAiOptions): MemoriesAiProvider {
  const settings = parseMemoriesAiOptions(options);
  const http = new MemoriesAiHttp(settings);
  let collection: Promise<string> | undefined;
  const timeoutMs = settings.timeoutMs;

  async function findOrCreateCollection(signal?: AbortSignal): Promise<string> {
    const listed = checked(
      collectionsAnswer,
      await http.call({
        method: 'GET',
        path: '/collections',
        query: { limit: 100 },
        operation: 'list collections',
        timeoutMs,
        signal,
      }),
      'list collections',
    );
    const found = listed.collections.find((entry) => entry.name === settings.collectionName);
    if (found) return found.id;
    const created = checked(
      createdCollectionAnswer,
      await http.call({
        method: 'POST',
        path: '/collections',
        body: { name: settings.collectionName },
        operation: 'create collection',
        timeoutMs,
        signal,
      }),
      'create collection',
    );
    return created.id;
  }

  const collectionId = (signal?: AbortSignal): Promise<string> => {
    if (settings.collectionId) return Promise.resolve(settings.collectionId);
    collection ??= findOrCreateCollection(signal).catch((error: unknown) => {
      collection = undefined;
      throw error;
    });
    return collection;
  };

  /** `GET /videos/{id}/<what>?start=&end=`, the derived reads of a span. */
  async function readSpan<T extends z.ZodType>(
    schema: T,
    videoId: string,
    what: string,
    operation: string,
    spanOptions: VideoSpanOptions | undefined,
  ): Promise<z.output<T>> {
    const answer = await http.call({
      method: 'GET',
      path: `${videoPath(videoId)}/${what}`,
      query: span(spanOptions),
      operation,
      timeoutMs,
      signal: spanOptions?.signal,
    });
    return checked(schema, answer, operation);
  }

  const provider: MemoriesAiProvider = {
    specificationVersion: 'v1',
    id: 'memories-ai',

    async upload(upload) {
      const size = await stat(upload.filePath).then(
        (s) => s.size,
        (error: Error) => {
          throw new ValidationError(
            [{ field: 'filePath', message: `cannot read ${upload.filePath}: ${error.message}` }],
            {
              component: COMPONENT,
            },
          );
        },
      );
      if (size > settings.maxUploadBytes) {
        throw new ValidationError(
          [
            {
              field: 'filePath',
              message: `${upload.filePath} is ${size} bytes; one upload takes at most ${settings.maxUploadBytes}`,
            },
          ],
          { component: COMPONENT, suggestion: 'Record shorter segments (segmentSeconds) or raise maxUploadBytes.' },
        );
      }
      const id = await collectionId(upload.signal);
      const form = new FormData();
      const description = {
        collection_id: id,
        fps: settings.indexFps,
        metadata: {
          title: basename(upload.filePath),
          tags: ['memoir', 'screen-recording'],
          custom: upload.metadata ?? {},
        },
        ...(upload.idempotencyKey ? { idempotency_key: upload.idempotencyKey } : {}),
        ...(upload.recordedAt ? { captured_at: upload.recordedAt } : {}),
      };
      form.append('json', JSON.stringify(description));
      form.append('file', await openAsBlob(upload.filePath, { type: 'video/mp4' }), basename(upload.filePath));
      const answer = checked(
        uploadAnswer,
        await http.call({
          method: 'POST',
          path: '/videos',
          body: form,
          operation: 'upload',
          timeoutMs: settings.uploadTimeoutMs,
          signal: upload.signal,
        }),
        'upload',
      );
      const operation = typeof answer.operation === 'string' ? answer.operation : answer.operation?.id;
      return { videoId: answer.video_id, ...(operation ? { operationId: operation } : {}) };
    },

    async status(videoId, statusOptions) {
      const answer = checked(
        videoAnswer,
        await http.call({
          method: 'GET',
          path: videoPath(videoId),
          operation: 'video status',
          timeoutMs,
          signal: statusOptions?.signal,
        }),
        'video status',
      );
      const state = stateOf(answer.status);
      const error = typeof answer.error === 'string' ? answer.error : (answer.error?.message ?? undefined);
      const percent = answer.progress?.percent;
      return {
        videoId,
        state,
        ...(state === 'failed' ? { error: error ?? answer.status } : {}),
        ...(percent === undefined ? {} : { percent }),
      };
    },

    async waitUntilIndexed(videoId, waitOptions) {
      const end = Date.now() + (waitOptions?.timeoutMs ?? 600_000);
      const interval = Math.max(waitOptions?.intervalMs ?? 5000, settings.minIntervalMs);
      for (;;) {
        const status = await provider.status(videoId, { signal: waitOptions?.signal });
        if (status.state === 'ready' || status.state === 'failed' || Date.now() + interval > end) return status;
        await new Promise((resolve) => setTimeout(resolve, interval));
      }
    },

    async search(query) {
      const answer = checked(
        searchAnswer,
        await http.call({
          method: 'POST',
          path: '/search',
          body: {
            collection_id: await collectionId(query.signal),
            query: query.text,
            mode: query.mode ?? settings.searchMode,
            top_k: query.limit ?? 5,
            group_by: 'moment',
            ...(settings.targets ? { targets: settings.targets } : {}),
          },
          operation: 'search',
          timeoutMs,
          signal: query.signal,
        }),
        'search',
      );
      return answer.results.map((result) => ({
        videoId: result.video_id,
        startMs: Math.round(result.start * 1000),
        endMs: Math.round(result.end * 1000),
        score: result.score,
        ...(result.snippet ? { description: result.snippet } : {}),
        ...(result.captured_at ? { recordedAt: result.captured_at } : {}),
      }));
    },

    async summary(videoId, spanOptions) {
      return (await readSpan(summaryAnswer, videoId, 'summary', 'summary', spanOptions)).summary;
    },

    async caption(videoId, spanOptions) {
      const answer = await readSpan(captionAnswer, videoId, 'caption', 'caption', spanOptions);
      return answer.segments.map((segment) => ({
        startMs: Math.round(segment.start * 1000),
        endMs: Math.round(segment.end * 1000),
        text: segment.text,
      }));
    },

    async clipSource(videoId, spanOptions) {
      const answer = await readSpan(clipAnswer, videoId, 'clip', 'clip link', spanOptions);
      return (answer.url ?? answer.clip_url ?? answer.download_url)!;
    },
  };
  return provider;
}
