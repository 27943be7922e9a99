import { z } from 'zod';
import { metadataSchema, scopeSchema } from './memory.js';

// Always the UTC, millisecond form `toISOString()` produces, so timestamps compare correctly as text.
const isoTimestamp = z.iso.datetime({ precision: 3 });

/** One change of an opinion's confidence, kept so belief drift stays explainable. */
export const confidenceChangeSchema = z.object({
  /** When the confidence changed. */
  at: isoTimestamp,
  /** Confidence before the change. */
  from: z.number().min(0).max(1),
  /** Confidence after the change. */
  to: z.number().min(0).max(1),
  /** Why: the evidence or reflection step that moved it. */
  reason: z.string(),
  /** The memory that caused the change, when one did. */
  memoryId: z.string().nullable(),
});
/**
 * A recorded change of confidence.
 *
 * @group Models
 */
export type ConfidenceChange = z.infer<typeof confidenceChangeSchema>;

/** A belief held with a confidence and the evidence behind it (`O(c=0.95)` in Markdown notes). */
export const opinionSchema = z.object({
  /** Unique id. */
  id: z.string().min(1),
  /** The belief, as a sentence. */
  statement: z.string().min(1),
  /** The entity it is about, or null. */
  entity: z.string().nullable(),
  /** 0..1. */
  confidence: z.number().min(0).max(1),
  /** Ids of memories that support it. */
  supporting: z.array(z.string()),
  /** Ids of memories that contradict it. */
  contradicting: z.array(z.string()),
  /** Every confidence change, oldest first. */
  history: z.array(confidenceChangeSchema),
  /** Ownership. */
  scope: scopeSchema,
  /** Creation time. */
  createdAt: isoTimestamp,
  /** Last change. */
  updatedAt: isoTimestamp,
});
/**
 * A belief with confidence and evidence.
 *
 * @group Models
 */
export type Opinion = z.infer<typeof opinionSchema>;

/**
 * Where a procedure was learned from.
 *
 * @group Models
 */
export const PROCEDURE_SOURCES = ['reflection', 'recording', 'session', 'manual'] as const;

/** A span of a screen recording that shows a procedure being done. */
export const videoEvidenceSchema = z.object({
  /** The video provider's id of the recording. */
  videoId: z.string().min(1),
  /** Start offset, milliseconds. */
  startMs: z.number().nonnegative(),
  /** End offset, milliseconds. */
  endMs: z.number().nonnegative(),
});
/**
 * Video evidence for a procedure step sequence.
 *
 * @group Models
 */
export type VideoEvidence = z.infer<typeof videoEvidenceSchema>;

/** How to do something, learned from task traces, recordings or sessions. Editable as Markdown. */
export const procedureSchema = z.object({
  /** Unique id; also the Markdown file's slug. */
  id: z.string().min(1),
  /** Short imperative title, e.g. "Investigate deployment failures". */
  title: z.string().min(1),
  /** Requests that should bring this procedure up. */
  triggerExamples: z.array(z.string()),
  /** Ordered steps. */
  steps: z.array(z.string()),
  /** Tips that worked. */
  whatWorks: z.array(z.string()),
  /** Approaches to avoid. */
  whatDoesNotWork: z.array(z.string()),
  /** How the result should be presented, or null. */
  outputFormat: z.string().nullable(),
  /** Times it was followed successfully. */
  successCount: z.number().int().nonnegative(),
  /** Times it was followed and failed. */
  failureCount: z.number().int().nonnegative(),
  /** Last time it was followed, or null. */
  lastUsedAt: isoTimestamp.nullable(),
  /** Where it was learned. */
  source: z.enum(PROCEDURE_SOURCES),
  /** Recording spans that show it, if learned from video. */
  videoEvidence: z.array(videoEvidenceSchema),
  /** Ownership. */
  scope: scopeSchema,
  /** Creation time. */
  createdAt: isoTimestamp,
  /** Last change. */
  updatedAt: isoTimestamp,
  /** Free-form JSON. */
  metadata: metadataSchema,
});
/**
 * A reusable procedure.
 *
 * @group Models
 */
export type Procedure = z.infer<typeof procedureSchema>;

/** A run of an agent. Memories retained during it carry its id. */
export const sessionSchema = z.object({
  /** Unique id, e.g. `session_20251127_101500_k3f9`. */
  id: z.string().min(1),
  /** Ownership. */
  scope: scopeSchema,
  /** First activity. */
  startedAt: isoTimestamp,
  /** Last activity, or null while open. */
  endedAt: isoTimestamp.nullable(),
  /** Memories retained in it. */
  memoryCount: z.number().int().nonnegative(),
  /** A short summary, or null. */
  summary: z.string().nullable(),
  /** Free-form JSON. */
  metadata: metadataSchema,
});
/**
 * A run of an agent.
 *
 * @group Models
 */
export type Session = z.infer<typeof sessionSchema>;

/** A person, project or thing that memories mention (`@Peter` or `bank/entities/Peter.md` in Markdown notes). */
export const entitySchema = z.object({
  /** Unique id: the slug qualified by scope, so two users' "Peter" stay apart. */
  id: z.string().min(1),
  /** Stable name key derived from the name, e.g. `the-castle`. */
  slug: z.string().min(1),
  /** Display name as first seen. */
  name: z.string().min(1),
  /** The entity page written by reflection, or null. */
  summary: z.string().nullable(),
  /** Memories mentioning it. */
  memoryCount: z.number().int().nonnegative(),
  /** Ownership. */
  scope: scopeSchema,
  /** First mention. */
  createdAt: isoTimestamp,
  /** Last change. */
  updatedAt: isoTimestamp,
});
/**
 * An entity page.
 *
 * @group Models
 */
export type Entity = z.infer<typeof entitySchema>;
