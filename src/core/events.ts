import type { MemoirError } from './spec/errors.js';
import type { Memory } from './spec/memory.js';

/** Why an input to `retain` was not stored. */
export type SkipReason = 'duplicate';

/** Payload of `memory:skipped`. */
export interface MemorySkippedEvent {
  /** Position of the input in the `retain` call. */
  index: number;
  /** Machine-readable reason. */
  reason: SkipReason;
  /** Human-readable explanation. */
  detail: string;
  /** The memory that made this input redundant, when there is one. */
  existingId?: string;
}

/** Payload of `recall`. */
export interface RecallEvent {
  /** The query as given. */
  query: string;
  /** Ids returned, best first. */
  ids: string[];
  /** Wall time of the recall, milliseconds. */
  durationMs: number;
}

/** Payload of `error`: background work that failed without throwing into agent code. */
export interface BackgroundErrorEvent {
  /** What was being done, e.g. `recordAccess`. */
  operation: string;
  /** The failure. */
  error: MemoirError;
}

/** Events a memory client emits, with their listener signatures. */
export interface MemoirEvents {
  /** Memories were stored by `retain`. */
  'memory:retained': (event: { memories: Memory[] }) => void;
  /** An input to `retain` was not stored. */
  'memory:skipped': (event: MemorySkippedEvent) => void;
  /** A memory was changed by `update`. */
  'memory:updated': (event: { memory: Memory; previous: Memory }) => void;
  /** Memories were hard-deleted by `forget`. */
  'memory:forgotten': (event: { ids: string[] }) => void;
  /** A memory was soft-invalidated. */
  'memory:invalidated': (event: { memory: Memory; reason: string }) => void;
  /** A recall finished. */
  recall: (event: RecallEvent) => void;
  /** Background work failed; the agent's call was not affected. */
  error: (event: BackgroundErrorEvent) => void;
}
