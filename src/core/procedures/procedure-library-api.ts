import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import type { Procedure } from '../spec/records.js';
import { type FormatProceduresOptions, formatProcedures } from './format-procedures.js';
import { type FormatRecordedStepsOptions, formatRecordedSteps } from './format-recorded-steps.js';
import { deleteProcedure } from './library/delete.js';
import { findRelevantProcedures } from './library/find-relevant.js';
import { proceduresFromRecording } from './library/from-recording.js';
import { getProcedure } from './library/get.js';
import { learnProcedure } from './library/learn.js';
import { createLibraryContext, type ProcedureLibrarySettings } from './library/library-context.js';
import { invalidProcedureFiles, listProcedures } from './library/list.js';
import { recordProcedureUse } from './library/record-use.js';
import { saveProcedure } from './library/save.js';
import { shouldReflect } from './library/should-reflect.js';
import { staleProcedures } from './library/stale.js';
import type { BrokenProcedureFile } from './procedure-index.js';
import type {
  FindProceduresOptions,
  FoundProcedure,
  LearnResult,
  ProcedureInput,
  ProcedureScopeOptions,
  ReflectCheck,
  TaskTrace,
} from './procedure-inputs.js';
import type { FromRecordingOptions, RecordingProcedure } from './recording-types.js';

export type { ProcedureLibrarySettings } from './library/library-context.js';

/**
 * Procedures learned from finished tasks, kept as Markdown files a person can edit
 * (`$MEMOIR_HOME/procedures/<slug>.md`): after a task with enough tool calls the agent
 * reflects in the background and saves a reusable procedure; on a similar request the best
 * matches go into the prompt. The files are the source of truth; the store keeps their
 * embeddings. Every method sees hand edits: a changed file is re-read (and re-embedded when
 * its title or triggers changed), and a file that does not parse is reported and left alone.
 *
 * @example
 * ```ts
 * const found = await memory.procedures.findRelevant(request);
 * const answer = await runAgent(`${memory.procedures.formatProcedures(found)}\n\n${request}`);
 * for (const { procedure } of found) await memory.procedures.recordUse(procedure.id, { success: answer.ok });
 * await memory.procedures.learn({ request, toolCalls: answer.toolCalls, narration: answer.narration, response: answer.text });
 * ```
 *
 * @group Procedures
 */
export interface ProcedureLibraryApi {
  /** The directory of the procedure files (absolute). */
  directory(): string;
  /**
   * True when a finished task is worth reflecting on: learning is enabled, at least
   * `minToolCalls` (default 3) tools ran, and the task did not fail.
   */
  shouldReflect(task: ReflectCheck): boolean;
  /**
   * When {@link shouldReflect}, queue a reflection on the task and resolve at once. In the
   * background the reflection model writes a procedure (zod-checked, repaired, retried once);
   * when a stored one is at least `updateThreshold` similar it is merged into that one (the
   * earlier version kept under `.history/`), otherwise a new file is written and
   * "Created procedure: <file>" logged. Without any model the task's tool calls become the
   * steps — only the calls that succeeded (a call with an error, or whose output says
   * `isError: true`, is left out) — and the file says in a "Needs a model" section that its
   * other sections need one. Failures never throw: a reply that stays unusable writes no file, emits
   * `procedure:failed` and keeps the task as an episode memory.
   */
  learn(task: TaskTrace, options?: ProcedureScopeOptions): Promise<LearnResult>;
  /**
   * The procedures closest to a request, best first: at most `k` (default `maxPerPrompt`,
   * 2) with a similarity of at least `threshold` (default `similarityThreshold`). Candidates
   * are the procedure files (when there is a directory) and the steps `fromRecording` cached
   * (source `recording`, compared by their query and by their steps; each result carries its
   * clip, wall-clock span and confidence as `recording`). `sources` narrows them:
   * `['recording']` finds recorded steps only.
   */
  findRelevant(query: string, options?: FindProceduresOptions): Promise<FoundProcedure[]>;
  /** The "Relevant Procedures" prompt section for what `findRelevant` found, escaped as untrusted data. */
  formatProcedures(found: ReadonlyArray<Procedure | FoundProcedure>, options?: FormatProceduresOptions): string;
  /**
   * The "Recorded Steps" prompt section for what `fromRecording` returned: per clip, "On Feb 10,
   * 2026 at 14:30 UTC, the user: 1) … 2) …", with its video range, wall-clock span and
   * confidence, escaped as untrusted data.
   */
  formatRecordedSteps(results: readonly RecordingProcedure[], options?: FormatRecordedStepsOptions): string;
  /**
   * Record that a procedure was followed: adds 1 to `success_count` (or to `failure_count`)
   * and sets `last_used`, rewriting only those front-matter keys. Rejects with a
   * NotFoundError for an unknown id.
   */
  recordUse(id: string, outcome: { success: boolean }): Promise<Procedure>;
  /** Procedures not used (nor created) for `days` (default `staleAfterDays`, 90), oldest first: candidates for review. */
  stale(options?: { days?: number }): Promise<Procedure[]>;
  /**
   * Write a procedure file (source `manual` unless given). With an existing id it replaces
   * that file, keeping the earlier version under `.history/`; without an id the slug of the
   * title names a new file.
   */
  save(procedure: ProcedureInput): Promise<Procedure>;
  /** The procedure of `<id>.md` (or the steps cached from a recording under that id), or null. */
  get(id: string, options?: ProcedureScopeOptions): Promise<Procedure | null>;
  /** Every readable procedure of the client's scope, by id. */
  list(): Promise<Procedure[]>;
  /** Delete a procedure file (a copy stays under `.history/`) and its embeddings; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Files in the directory that are not readable procedures, with the reason; they are left untouched. */
  invalidFiles(): Promise<BrokenProcedureFile[]>;
  /**
   * How the user did something on screen, from their recordings (needs `createMemory({ video })`):
   * the video provider's best clips for `query`, and for each the steps a vision model saw
   * between consecutive key frames, with timestamp, confidence, summary and the clip's
   * reference. Each result is cached as a Procedure (source `recording`, the clip as video
   * evidence), so a similar query later is answered from the store, with no search and no model
   * call, and retained as a memory (kind `experience`, category `recording`, `occurredAt` the
   * clip's start), so `recall` finds the steps too (`categories: ['recording']` for them only).
   * Without a video provider only the cache answers: the cached steps closest to the query (a
   * ConfigError when nothing was ever cached). `scope` narrows the client's scope for the call.
   */
  fromRecording(query: string, options?: FromRecordingOptions): Promise<RecordingProcedure[]>;
}

/**
 * The procedure library over an engine: each operation is its own module under `library/`,
 * given the library's context (the engine, the settings, the directory and the reflection model).
 */
export function createProcedureLibraryApi(
  engine: MemoryEngine,
  settings: ProcedureLibrarySettings,
): ProcedureLibraryApi {
  const ctx = createLibraryContext(engine, settings);
  return {
    directory: ctx.dir,
    shouldReflect: (task) => shouldReflect(ctx, task),
    formatProcedures: (found, formatOptions) => formatProcedures(found, formatOptions),
    formatRecordedSteps: (results, formatOptions) => formatRecordedSteps(results, formatOptions),
    // Every async method, declared for the drain: close() waits for calls started before it.
    ...drained<AsyncMembers<ProcedureLibraryApi>>({
      learn: (task, options) => learnProcedure(ctx, task, options),
      findRelevant: (query, options) => findRelevantProcedures(ctx, query, options),
      recordUse: (id, outcome) => recordProcedureUse(ctx, id, outcome),
      stale: (options) => staleProcedures(ctx, options),
      save: (procedure) => saveProcedure(ctx, procedure),
      get: (id, options) => getProcedure(ctx, id, options),
      list: () => listProcedures(ctx),
      delete: (id) => deleteProcedure(ctx, id),
      invalidFiles: () => invalidProcedureFiles(ctx),
      fromRecording: (query, options) => proceduresFromRecording(ctx, query, options),
    }),
  };
}
