/**
 * Steps a user took on screen, drawn from a recorded clip (the seed's procedural-memory answer).
 *
 * @group Procedures
 */
export interface RecordingProcedure {
  /** When the clip was recorded (ISO 8601), when the provider knows. */
  timestamp: string | null;
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
  limit?: number;
  /** Search again even when a similar query is cached. Default false. */
  refresh?: boolean;
}
