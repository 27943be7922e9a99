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
}

/**
 * A search over indexed videos.
 *
 * @group Ports
 */
export interface VideoSearchQuery {
  /** Natural-language query, e.g. "adding an SSH key on GitHub". */
  text: string;
  /** Maximum clips. */
  limit?: number;
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
  /** Upload a segment; resolves to its id once the upload is accepted. */
  upload(upload: VideoUpload): Promise<VideoUploaded>;
  /** Current indexing state of a video. */
  status(videoId: string, options?: { signal?: AbortSignal }): Promise<VideoStatus>;
  /** Clips matching a query, best first. */
  search(query: VideoSearchQuery): Promise<VideoClip[]>;
  /** A text summary of a whole video. */
  summary(videoId: string, options?: { signal?: AbortSignal }): Promise<string>;
}
