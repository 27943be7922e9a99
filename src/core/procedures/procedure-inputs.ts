import { z } from 'zod';
import { metadataSchema, type Scope, scopeSchema } from '../spec/memory.js';
import { PROCEDURE_SOURCES, type Procedure, videoEvidenceSchema } from '../spec/records.js';
import type { RecordingEvidence } from './recording-types.js';

const text = (max: number) => z.string().max(max);

/** A tool call of a finished task: its name, or the name with what went in and came out. */
const toolCallSchema = z.union([
  text(200).trim().min(1),
  z
    .object({
      name: text(200).trim().min(1),
      input: z.unknown().optional(),
      output: z.unknown().optional(),
      error: z.unknown().optional(),
    })
    .strict(),
]);

/**
 * One tool call of a finished task: the tool's name, or the name with its input, output or error.
 *
 * @group Procedures
 */
export type TaskToolCall =
  | string
  | {
      /** The tool's name, e.g. `slack_search`. */
      name: string;
      /** What it was called with (any JSON; shortened for the prompt). */
      input?: unknown;
      /** What it returned (shortened for the prompt). */
      output?: unknown;
      /** Its error, when it failed. */
      error?: unknown;
    };

/** A finished task, as `learn` takes it. */
export const taskTraceSchema = z
  .object({
    request: text(20_000).trim().min(1),
    toolCalls: z.array(toolCallSchema).max(1000),
    narration: z.union([text(100_000), z.array(text(100_000)).max(1000)]).optional(),
    response: text(100_000).optional(),
    success: z.boolean().default(true),
    error: z.unknown().optional(),
  })
  .strict();

/**
 * A finished task, as {@link ProcedureLibraryApi.learn} takes it (the seed's user request,
 * tools used, agent narration and final response).
 *
 * @group Procedures
 */
export interface TaskTrace {
  /** What the user asked for. */
  request: string;
  /** The tools the agent called, in order. */
  toolCalls: readonly TaskToolCall[];
  /** What the agent said between tool calls (the seed's intermediate text blocks). */
  narration?: string | readonly string[];
  /** The agent's final answer. */
  response?: string;
  /** Whether the task succeeded. Default true; failed tasks are not reflected on. */
  success?: boolean;
  /** The task's error, when it failed; any value other than undefined or null counts as a failure. */
  error?: unknown;
}

/** Parsed {@link TaskTrace}. */
export type ParsedTaskTrace = z.output<typeof taskTraceSchema>;

/** What `shouldReflect` looks at. */
export const reflectCheckSchema = z
  .object({
    toolCalls: z.union([z.number().int().nonnegative(), z.array(z.unknown())]),
    error: z.unknown().optional(),
    success: z.boolean().optional(),
  })
  .passthrough();

/**
 * What {@link ProcedureLibraryApi.shouldReflect} looks at: the tool calls (or their number)
 * and whether the task failed. Extra fields (a whole {@link TaskTrace}) are ignored.
 *
 * @group Procedures
 */
export interface ReflectCheck {
  /** The tool calls of the task, or how many there were. */
  toolCalls: number | readonly unknown[];
  /** The task's error, if it failed. */
  error?: unknown;
  /** False when the task failed. */
  success?: boolean;
}

/** Options of `findRelevant`. */
export const findOptionsSchema = z
  .object({
    k: z.number().int().min(1).max(100).optional(),
    threshold: z.number().min(0).max(1).optional(),
    sources: z.array(z.enum(PROCEDURE_SOURCES)).min(1).max(PROCEDURE_SOURCES.length).optional(),
    scope: scopeSchema.optional(),
  })
  .strict();

/**
 * Options of {@link ProcedureLibraryApi.findRelevant}.
 *
 * @group Procedures
 */
export interface FindProceduresOptions {
  /** Most procedures returned. Default: `maxPerPrompt` (2). */
  k?: number;
  /**
   * The old name of `k`, still accepted (a one-time warning is logged).
   *
   * @deprecated Use `k`, the name every ranked search takes.
   */
  topK?: number;
  /** Least similarity, 0..1. Default: `similarityThreshold` (per embedder). */
  threshold?: number;
  /**
   * Only procedures of these sources: `reflection`, `session`, `manual` (the procedure files)
   * and `recording` (steps cached from screen recordings by `fromRecording`). Default: all.
   * `['recording']` asks for recorded steps only, and needs no procedure directory.
   */
  sources?: ReadonlyArray<Procedure['source']>;
  /**
   * Narrows the client's scope for this call (a door whose one client serves many users passes
   * the caller's); it never widens it: a scoped client asked for another tenant finds nothing.
   */
  scope?: Scope;
}

/** Options of `learn` and `get`: the scope of the call. */
export const scopeOptionsSchema = z.object({ scope: scopeSchema.optional() }).strict();

/**
 * Options of {@link ProcedureLibraryApi.learn} and {@link ProcedureLibraryApi.get}.
 *
 * @group Procedures
 */
export interface ProcedureScopeOptions {
  /**
   * Narrows the client's scope for this call: the procedure is learned into, or read from, this
   * scope. A scoped client refuses (learn) or does not find (get) another tenant's.
   */
  scope?: Scope;
}

const isoTime = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());
const lines = z.array(text(4000).trim().min(1)).max(200);

/** A procedure as `save` takes it. */
export const procedureInputSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,199}$/i, 'expected a slug: letters, digits, ".", "_" or "-", at most 200')
      .refine((value) => !value.includes('..'), 'expected a slug without ".."')
      .optional(),
    title: text(200).trim().min(1),
    triggerExamples: z.array(text(300).trim().min(1)).max(50).default([]),
    steps: lines.default([]),
    whatWorks: lines.default([]),
    whatDoesNotWork: lines.default([]),
    outputFormat: text(10_000).nullable().default(null),
    successCount: z.number().int().nonnegative().default(0),
    failureCount: z.number().int().nonnegative().default(0),
    lastUsedAt: isoTime.nullable().default(null),
    source: z.enum(PROCEDURE_SOURCES).default('manual'),
    videoEvidence: z.array(videoEvidenceSchema).default([]),
    scope: scopeSchema.optional(),
    createdAt: isoTime.optional(),
    metadata: metadataSchema.default({}),
  })
  .strict();

/**
 * A procedure as {@link ProcedureLibraryApi.save} takes it: a title, and whatever else is
 * known. Without an id, the slug of the title names the file (`-2`, `-3`… when taken).
 *
 * @group Procedures
 */
export type ProcedureInput = Partial<Omit<Procedure, 'title' | 'updatedAt'>> & {
  /** Short imperative title, e.g. "Investigate deployment failures". */
  title: string;
};

/**
 * A procedure `findRelevant` found, with how close it is to the request.
 *
 * @group Procedures
 */
export interface FoundProcedure {
  /** The procedure, as its file says now. */
  procedure: Procedure;
  /** Cosine similarity of the request to its title or a trigger example (the best of them), -1..1. */
  similarity: number;
  /** Absolute path of its file; null for steps cached from a recording, which live in the store only. */
  file: string | null;
  /** For a procedure of source `recording`: the clip, its wall-clock span and the provider's confidence. */
  recording?: RecordingEvidence;
}

/**
 * What {@link ProcedureLibraryApi.learn} did with a task.
 *
 * @group Procedures
 */
export interface LearnResult {
  /** True when a reflection was queued; `flush()` waits for it. */
  scheduled: boolean;
  /** Why not, when `scheduled` is false (too few tool calls, a failed task, learning disabled). */
  reason: string | null;
}
