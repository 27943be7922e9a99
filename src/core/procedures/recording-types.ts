import type { Scope } from '../spec/memory.js';

/**
 * When a clip happened on the wall clock: its first and last moment (ISO 8601, UTC), from the
 * time the recording started plus the clip's offsets.
 *
 * @group Procedures
 */
export interface RecordedSpan {
  /** When the clip starts. */
  start: string;
  /** When the clip ends. */
  end: string;
}

/**
 * Steps a user took on screen, drawn from a recorded clip (the seed's procedural-memory answer).
 *
 * @group Procedures
 */
export interface RecordingProcedure {
  /** When the clip was recorded (ISO 8601): the start of {@link recordedAt}, when the provider knows. */
  timestamp: string | null;
  /** The clip's wall-clock span (start and end), when the provider knows when the video was recorded. */
  recordedAt: RecordedSpan | null;
  /** Length of the clip, seconds. */
  durationSeconds: number;
  /** The provider's relevance score of the clip. */
  confidence: number;
  /** What happens in the clip, in the provider's words. */
  summary: string;
  /** One action per step, in order. */
  steps: string[];
  /** Where the clip can be watched (a provider link or path). */
  videoUrl: string;
  /** The provider's video id. */
  videoId: string;
  /** Clip start, milliseconds into the video. */
  videoStartMs: number;
  /** Clip end, milliseconds. */
  videoEndMs: number;
  /** Id of the Procedure record (source `recording`) it is cached as. */
  procedureId: string;
  /**
   * Id of the memory (category `recording`) that `recall` finds the steps by; null when it was
   * forgotten or could not be stored.
   */
  memoryId: string | null;
  /** True when it came from the cache, with no search and no model call. */
  cached: boolean;
}

/**
 * Options of `memory.procedures.fromRecording`.
 *
 * @group Procedures
 */
export interface FromRecordingOptions {
  /** Most clips (results). Default 3. */
  k?: number;
  /**
   * The old name of `k`, still accepted (a one-time warning is logged).
   *
   * @deprecated Use `k`, the name every ranked search takes.
   */
  limit?: number;
  /** Search again even when a similar query is cached. Default false. */
  refresh?: boolean;
  /**
   * Narrow the client's scope for this call (never widen it): cached steps are looked up, and
   * new ones stored, inside it. Default: the client's scope.
   */
  scope?: Scope;
}

/**
 * Where a procedure cached from a recording came from: the clip, when it happened, and how
 * sure the provider was. On `findRelevant` results of source `recording`.
 *
 * @group Procedures
 */
export interface RecordingEvidence {
  /** The request the steps were drawn for. */
  query: string;
  /** The provider's video id. */
  videoId: string;
  /** Where the clip can be watched. */
  videoUrl: string;
  /** Clip start, milliseconds into the video. */
  videoStartMs: number;
  /** Clip end, milliseconds. */
  videoEndMs: number;
  /** The clip's wall-clock span, when known. */
  recordedAt: RecordedSpan | null;
  /** The provider's relevance score of the clip. */
  confidence: number;
  /** What happens in the clip. */
  summary: string;
  /** Id of the memory recall finds the steps by, or null. */
  memoryId: string | null;
}
