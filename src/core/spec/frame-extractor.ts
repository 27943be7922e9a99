/**
 * One still image taken from a video.
 *
 * @group Ports
 */
export interface KeyFrame {
  /** Where in the video it was taken, milliseconds from the video's start. */
  timeMs: number;
  /** The encoded image. */
  data: Uint8Array;
  /** MIME type of `data`, e.g. `image/jpeg`. */
  mediaType: string;
}

/**
 * Arguments of {@link FrameExtractor.extract}.
 *
 * @group Ports
 */
export interface FrameExtractionRequest {
  /** A URL or local path of the video. */
  source: string;
  /** Start of the span, milliseconds from the video's start. */
  startMs: number;
  /** End of the span, milliseconds. */
  endMs: number;
  /** Most frames to return; the first and last frames of the span count. */
  maxFrames: number;
  /** Least scene-change score (0..1) that makes a frame a key frame; screen content changes little, so keep it low. */
  sceneThreshold: number;
  /** Aborts the extraction. */
  signal?: AbortSignal;
}

/**
 * Takes key frames (frames where the picture changed) out of a video span. memoir's core
 * cannot run a video decoder itself, so this port is implemented outside it
 * (`createFfmpegFrameExtractor` in `memoir/recorder`) and handed to `createMemory({ video })`.
 *
 * @group Ports
 */
export interface FrameExtractor {
  /** Version of this interface the extractor implements. */
  readonly specificationVersion: 'v1';
  /** Names the implementation, e.g. `ffmpeg`. */
  readonly id: string;
  /** Key frames of a span, oldest first, at most `maxFrames`. Rejects with a ProviderError on failure. */
  extract(request: FrameExtractionRequest): Promise<KeyFrame[]>;
}
