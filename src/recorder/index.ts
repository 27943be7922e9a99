/**
 * `memoir/recorder`: an always-on ffmpeg screen recorder (segments, rolling buffer, privacy
 * pauses), the background uploader that hands its segments to a {@link VideoProvider}, and
 * the ffmpeg frame extractor `createMemory({ video: { frames } })` uses to draw steps from clips.
 * ffmpeg comes from the OS package (or `FFMPEG_PATH`); nothing is downloaded.
 *
 * @module
 */

export type { FrameExtractor, KeyFrame } from '../core/spec/frame-extractor.js';
export type { VideoProvider } from '../core/spec/video-provider.js';
export { type CaptureInput, inputArguments, outputArguments, recorderArguments } from './capture-arguments.js';
export { discoverFfmpeg, type FfmpegInstallation, locateFfmpeg } from './ffmpeg-discovery.js';
export { createFfmpegFrameExtractor, type FfmpegFrameExtractorOptions } from './ffmpeg-frame-extractor.js';
export type { RecorderEvents, RecorderState, SegmentInfo } from './recorder-events.js';
export { DEFAULT_PRIVACY_PATTERNS, type ScreenRecorderOptions } from './recorder-options.js';
export {
  createScreenRecorder,
  type RecorderStats,
  type ScreenRecorder,
  type SegmentStats,
} from './screen-recorder.js';
export {
  createSegmentUploader,
  type SegmentUploader,
  type SegmentUploaderOptions,
  type UploaderEvents,
} from './segment-uploader.js';
export type { JournalEntry, UploadState } from './upload-journal.js';
