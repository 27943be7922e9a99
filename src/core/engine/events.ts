import type { MemoirError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';
import type { Procedure } from '../spec/records.js';

/**
 * Why something was not stored: `duplicate` (identical, or judged a duplicate by the
 * model), `guard` (a conversation too short or from a failed run to extract from),
 * `interval` (a captured tool call repeated within `minIntervalSeconds`), `excluded` (a
 * captured call in a session matching a privacy exclusion).
 *
 * @group Events
 */
export type SkipReason = 'duplicate' | 'guard' | 'interval' | 'excluded';

/**
 * Payload of `memory:skipped`.
 *
 * @group Events
 */
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

/**
 * Payload of `extraction:failed`.
 *
 * @group Events
 */
export interface ExtractionFailedEvent {
  /** What went wrong, e.g. the model's last validation error. */
  reason: string;
  /** The episode memory that keeps the raw conversation. */
  episodeId: string;
  /** The conversation's session, if any. */
  sessionId: string | null;
}

/**
 * Payload of `recall`.
 *
 * @group Events
 */
export interface RecallEvent {
  /** The query as given. */
  query: string;
  /** Ids returned, best first. */
  ids: string[];
  /** Wall time of the recall, milliseconds. */
  durationMs: number;
}

/**
 * Payload of `error`: background work that failed without throwing into agent code.
 *
 * @group Events
 */
export interface BackgroundErrorEvent {
  /** What was being done, e.g. `recordAccess`. */
  operation: string;
  /** The failure. */
  error: MemoirError;
  /** The input the work was given (e.g. to `retainAsync`), so the host can keep it. */
  input?: unknown;
}

/**
 * Payload of `procedure:updated`: a learned procedure was merged into a similar stored one.
 *
 * @group Events
 */
export interface ProcedureUpdatedEvent {
  /** The procedure as written now. */
  procedure: Procedure;
  /** The version it replaced (kept under `.history/` beside the file). */
  previous: Procedure;
  /** Absolute path of its file. */
  file: string;
  /** Similarity of the new draft to the stored procedure (1 for `save` of an existing id). */
  similarity: number;
}

/**
 * Payload of `procedure:failed`: a reflection produced no procedure.
 *
 * @group Events
 */
export interface ProcedureFailedEvent {
  /** Why, e.g. the model's last validation error. */
  reason: string;
  /** The task as `learn` received it (validated), so the host can keep or retry it. */
  input: unknown;
  /** The episode memory that keeps the task, or null when none could be stored. */
  episodeId: string | null;
}

/**
 * A workspace file or folder that was not read, and why.
 *
 * @group Workspace
 */
export interface SkippedWorkspaceFile {
  /** Workspace-relative path. */
  file: string;
  /** Why, e.g. "is a symbolic link to /etc, outside /home/ann/ws". */
  reason: string;
}

/**
 * Payload of `workspace:indexed`: the workspace watcher brought the index up to date after
 * files changed.
 *
 * @group Events
 */
export interface WorkspaceIndexedEvent {
  /** Workspace-relative paths whose change started this run (as the file system named them). */
  changed: string[];
  /** Files re-read (changed or new). */
  changedFiles: string[];
  /** Files whose items left the index. */
  removedFiles: string[];
  /** Items written. */
  indexed: number;
  /** Items that left the index. */
  removed: number;
  /**
   * Files and folders not read, with the reason: a link leading out of the workspace (swapped
   * in while the watch ran, say; its items leave), a file over the size limit, one that is not
   * a regular file.
   */
  skipped: SkippedWorkspaceFile[];
}

/**
 * Payload of `reflect:stopped`: a reflect run reached its token or time bound and stopped
 * between steps. What it wrote so far stays; the memories it reflects over are unchanged, so
 * the next run picks up what this one did not reach.
 *
 * @group Events
 */
export interface ReflectStoppedEvent {
  /** `tokens` (maxTokens reached) or `deadline` (deadlineMs passed). */
  reason: 'tokens' | 'deadline';
  /** Model tokens used by the run. */
  tokensUsed: number;
  /** Wall time of the run, milliseconds. */
  elapsedMs: number;
  /** Entities whose pages the run did not reach. */
  pending: string[];
  /** `schedule` for a scheduled run, `call` for `reflect()`. */
  trigger: 'schedule' | 'call';
}

/**
 * Events a memory client emits, with their listener signatures.
 *
 * @group Events
 */
export interface MemoirEvents {
  /** Memories were stored by `retain`. */
  'memory:retained': (event: { memories: Memory[] }) => void;
  /** An input to `retain` was not stored. */
  'memory:skipped': (event: MemorySkippedEvent) => void;
  /** The conversation pipeline stored a new memory. */
  'memory:created': (event: { memory: Memory }) => void;
  /** The conversation pipeline merged new information into a stored memory. */
  'memory:merged': (event: { memory: Memory; previous: Memory }) => void;
  /**
   * Memories were stored without an embedding because the embedder failed: lexical search
   * finds them now, and they are embedded later (once the embedder answers again, on the
   * next open, or by `reindex()`).
   */
  'embedding:deferred': (event: {
    /** The memories waiting for an embedding. */
    ids: string[];
    /** Why they could not be embedded, e.g. the embedder's error. */
    reason: string;
  }) => void;
  /** Extraction from a conversation failed; the conversation was kept as an episode. */
  'extraction:failed': (event: ExtractionFailedEvent) => void;
  /** A memory was changed by `update`. */
  'memory:updated': (event: { memory: Memory; previous: Memory }) => void;
  /** Memories were hard-deleted: by `forget`, `deleteSession`, `cleanup` or `consolidate`. */
  'memory:forgotten': (event: { ids: string[] }) => void;
  /** A memory was soft-invalidated. */
  'memory:invalidated': (event: { memory: Memory; reason: string }) => void;
  /** A recall finished. */
  recall: (event: RecallEvent) => void;
  /** A procedure file was written for a newly learned (or saved) procedure. */
  'procedure:created': (event: {
    /** The procedure. */
    procedure: Procedure;
    /** Absolute path of its file. */
    file: string;
  }) => void;
  /** A procedure file was rewritten with a merged or saved version. */
  'procedure:updated': (event: ProcedureUpdatedEvent) => void;
  /** A reflection produced no procedure; the task was kept as an episode. */
  'procedure:failed': (event: ProcedureFailedEvent) => void;
  /** A procedure file is not readable (e.g. broken YAML); it is left untouched and skipped until fixed. */
  'procedure:invalid': (event: {
    /** Absolute path of the file. */
    file: string;
    /** What is wrong. */
    reason: string;
  }) => void;
  /** The workspace watcher re-indexed changed Markdown files. */
  'workspace:indexed': (event: WorkspaceIndexedEvent) => void;
  /** A reflect run stopped at its token or time bound. */
  'reflect:stopped': (event: ReflectStoppedEvent) => void;
  /** Background work failed; the agent's call was not affected. */
  error: (event: BackgroundErrorEvent) => void;
}

/**
 * Every event name a client emits, so `on`/`once`/`off` can refuse a misspelt one at run
 * time instead of subscribing to an event that never comes.
 */
export const MEMOIR_EVENT_NAMES = [
  'memory:retained',
  'memory:skipped',
  'memory:created',
  'memory:merged',
  'embedding:deferred',
  'extraction:failed',
  'memory:updated',
  'memory:forgotten',
  'memory:invalidated',
  'recall',
  'procedure:created',
  'procedure:updated',
  'procedure:failed',
  'procedure:invalid',
  'workspace:indexed',
  'reflect:stopped',
  'error',
] as const satisfies ReadonlyArray<keyof MemoirEvents>;

// Fails to compile when an event is added to MemoirEvents but not to the list above.
const everyEventListed: Exclude<keyof MemoirEvents, (typeof MEMOIR_EVENT_NAMES)[number]> extends never ? true : never =
  true;
void everyEventListed;
