/**
 * What a recorder is doing.
 *
 * @group Recorder
 */
export type RecorderState = 'idle' | 'recording' | 'paused' | 'privacy-paused' | 'stopped' | 'failed';

/**
 * A closed segment: final, playable, safe to upload.
 *
 * @group Recorder
 */
export interface SegmentInfo {
  /** Absolute path. */
  path: string;
  /** Size in bytes. */
  bytes: number;
  /** When its first frame was grabbed, epoch ms (the file name carries the same time to the second). */
  startedAt: number;
  /** Length, seconds. */
  durationSeconds: number;
}

/**
 * Typed events of a screen recorder and its uploader.
 *
 * @group Recorder
 */
export interface RecorderEvents {
  /** A segment was closed (after any privacy cut). */
  segment: (segment: SegmentInfo) => void;
  /** A segment was deleted by the rolling buffer; `hard-cap` means it had not been uploaded yet. */
  'segment:deleted': (event: {
    /** The deleted file. */
    path: string;
    /** `rotation` (over budget, already uploaded) or `hard-cap` (over the hard byte cap). */
    reason: 'rotation' | 'hard-cap';
    /** Whether it had been uploaded. */
    uploaded: boolean;
  }) => void;
  /** The recorder moved to another state. */
  state: (state: RecorderState) => void;
  /** An excluded window became active; recording paused. The title is not repeated here, only the pattern it matched. */
  'privacy:paused': (event: {
    /** The pattern that matched. */
    pattern: string;
    /** When the window was seen, epoch ms. */
    at: number;
  }) => void;
  /** No excluded window is active any more; recording goes on unless paused by hand. */
  'privacy:resumed': (event: {
    /** When it was seen, epoch ms. */
    at: number;
  }) => void;
  /** Frames recorded between an excluded window appearing and the pause were removed from a segment. */
  'privacy:cut': (event: {
    /** The segment. */
    path: string;
    /** Seconds kept from its start. */
    keptSeconds: number;
    /** Seconds removed from its end. */
    removedSeconds: number;
    /** True when nothing was left and the file was deleted. */
    deleted: boolean;
  }) => void;
  /** A segment was uploaded. */
  uploaded: (event: {
    /** The segment. */
    path: string;
    /** The provider's video id. */
    videoId: string;
  }) => void;
  /** An upload attempt failed; `willRetry` says whether it is tried again. */
  'upload:failed': (event: {
    /** The segment. */
    path: string;
    /** What went wrong. */
    error: Error;
    /** Attempts so far. */
    attempt: number;
    /** Whether another attempt is scheduled. */
    willRetry: boolean;
  }) => void;
  /** Something went wrong in the background; recording goes on where it can. */
  error: (event: {
    /** What was being done. */
    operation: string;
    /** The error. */
    error: Error;
  }) => void;
}
