/**
 * A video segment to upload.
 *
 * @group Ports
 */
export interface VideoUpload {
  /** Path of a local video file. */
  filePath: string;
  /** Metadata stored with the video (host, display, recording time…). */
  metadata?: Record<string, string>;
  /**
   * A key that names this upload for good: a provider that supports it accepts the same key
   * once, so a retry after a lost answer does not index the segment twice.
   */
  idempotencyKey?: string;
  /** When the recording started (ISO 8601), so search results can say when it happened. */
  recordedAt?: string;
  /** Aborts the upload. */
  signal?: AbortSignal;
}

/**
 * An accepted upload.
 *
 * @group Ports
 */
export interface VideoUploaded {
  /** The provider's id of the video. */
  videoId: string;
  /** The provider's id of the indexing job, when it has one. */
  operationId?: string;
}

/**
 * Indexing state of an uploaded video.
 *
 * @group Ports
 */
export type VideoState = 'uploading' | 'processing' | 'ready' | 'failed';

/**
 * Status of an uploaded video.
 *
 * @group Ports
 */
export interface VideoStatus {
  /** The provider's id. */
  videoId: string;
  /** Indexing state. */
  state: VideoState;
  /** Reason, when `failed`. */
  error?: string;
  /** Indexing progress 0..100, when the provider reports it. */
  percent?: number;
}

/**
 * How a search matches: by meaning, by words, or both.
 *
 * @group Ports
 */
export type VideoSearchMode = 'semantic' | 'keyword' | 'hybrid';

/**
 * A search over indexed videos.
 *
 * @group Ports
 */
export interface VideoSearchQuery {
  /** Natural-language query, e.g. "adding an SSH key on GitHub". */
  text: string;
  /** Maximum clips (the provider's top-k). */
  limit?: number;
  /** Matching mode; the provider's default when absent. */
  mode?: VideoSearchMode;
  /** Aborts the call. */
  signal?: AbortSignal;
}

/**
 * One matching clip.
 *
 * @group Ports
 */
export interface VideoClip {
  /** The provider's video id. */
  videoId: string;
  /** Clip start, milliseconds from the video's start. */
  startMs: number;
  /** Clip end, milliseconds. */
  endMs: number;
  /** Relevance, higher is better, provider-defined scale. */
  score: number;
  /** What happens in the clip, when the provider says. */
  description?: string;
  /** When the video was recorded (ISO 8601), when the provider knows. */
  recordedAt?: string;
}

/**
 * A span of a video and its caption.
 *
 * @group Ports
 */
export interface VideoCaption {
  /** Start, milliseconds from the video's start. */
  startMs: number;
  /** End, milliseconds. */
  endMs: number;
  /** What the provider saw in the span. */
  text: string;
}

/**
 * A span of a video, for the calls that read part of one.
 *
 * @group Ports
 */
export interface VideoSpanOptions {
  /** Start, milliseconds; the video's start when absent. */
  startMs?: number;
  /** End, milliseconds; the video's end when absent. */
  endMs?: number;
  /** Aborts the call. */
  signal?: AbortSignal;
}

/**
 * A video-indexing service (e.g. Memories AI) that turns screen recordings into searchable clips.
 *
 * @group Ports
 */
export interface VideoProvider {
  /** Version of this interface the provider implements. */
  readonly specificationVersion: 'v1';
  /** Provider name, e.g. `memories-ai`. */
  readonly id: string;
  /** Upload a segment; resolves to its id once the upload is accepted (indexing goes on afterwards). */
  upload(upload: VideoUpload): Promise<VideoUploaded>;
  /** Current indexing state of a video. */
  status(videoId: string, options?: { signal?: AbortSignal }): Promise<VideoStatus>;
  /** Clips matching a query, best first. */
  search(query: VideoSearchQuery): Promise<VideoClip[]>;
  /** A text summary of a whole video, or of a span of it when the provider can. */
  summary(videoId: string, options?: VideoSpanOptions): Promise<string>;
  /** Captions of a video's spans, oldest first. Optional: not every provider captions. */
  caption?(videoId: string, options?: VideoSpanOptions): Promise<VideoCaption[]>;
  /**
   * A URL (or local path) from which the media of a span can be read, e.g. a signed download
   * link; key frames are extracted from it. Optional: without it, steps cannot be drawn from video.
   */
  clipSource?(videoId: string, options?: VideoSpanOptions): Promise<string>;
}
