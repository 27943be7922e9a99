/**
 * Workflow pattern learning and context-aware suggestions over captured tool calls.
 *
 * Captured tool calls (see `createCapture`) are `experience` memories of category
 * `action` (or `screen`) whose metadata holds `{ captured, type, tool, success,
 * parameters?, durationMs? }` and whose first entity is the tool name. The functions
 * here read those memories straight from a {@link MemoryStore}:
 *
 * - `detectWorkflows` finds tool sequences that recur across sessions;
 * - `storeWorkflows` turns them into `workflow` memories;
 * - `workflowFromSession` turns one session's successful actions into a {@link Procedure};
 * - `suggest` finds similar past successful actions and workflows;
 * - `warn` reports how a tool (with given parameters) fared before;
 * - `analyzePatterns` lists tools that usually succeed and tools that usually fail.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ValidationError } from '../spec/errors.js';
import { type Memory, type MemoryInput, type Scope, scopeSchema } from '../spec/memory.js';
import type { Procedure } from '../spec/records.js';
import type { MemoryFilter, MemoryStore } from '../spec/store.js';
import { stableJson } from '../utils/stable-json.js';
import { parseInput } from '../utils/validate.js';

const DAY_MS = 86_400_000;
const ARROW = ' → ';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/** The tool a memory records: `metadata.tool`, else its first entity, else null. */
function toolOf(memory: Memory): string | null {
  const tool = memory.metadata.tool;
  if (typeof tool === 'string' && tool.trim()) return tool;
  return memory.entities[0] ?? null;
}

/** A captured call failed only when `metadata.success` is exactly `false`. */
function succeeded(memory: Memory): boolean {
  return memory.metadata.success !== false;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

function times(count: number): string {
  return count === 1 ? '1 time' : `${count} times`;
}

function scopeFilter(scope: Scope | undefined): Pick<MemoryFilter, 'scope'> {
  return scope === undefined ? {} : { scope };
}

const scopeOption = scopeSchema.optional();
const positiveInt = z.number().int().positive();

// ---------------------------------------------------------------------------------------
// detectWorkflows
// ---------------------------------------------------------------------------------------

/** Options of `detectWorkflows`. */
export interface DetectWorkflowsOptions {
  /** Only memories of this scope. Default: every scope. */
  scope?: Scope;
  /** The current time, epoch milliseconds; the window ends here. */
  now: number;
  /** Days before `now` to look back. Default 7. */
  windowDays?: number;
  /** Shortest sequence reported. Default 2. */
  minSteps?: number;
  /** Longest sequence reported. Default 6. */
  maxSteps?: number;
  /** Occurrences (over all sessions together) a sequence needs. Default 3. */
  minRepeats?: number;
}

/** A tool sequence that recurs, found by `detectWorkflows`. */
export interface DetectedWorkflow {
  /** Tool names, in order. */
  steps: string[];
  /** Non-overlapping occurrences counted over all sessions in the window. */
  repeats: number;
  /** Sessions it occurred in, sorted; actions without a session count toward `repeats` only. */
  sessions: string[];
  /** Share of the counted steps (over all occurrences) that succeeded, 0..1. */
  successRate: number;
  /** `successRate × repeats / (repeats + 1)`, rounded to 3 decimals; 0..1. */
  confidence: number;
}

const detectOptionsSchema = z
  .object({
    scope: scopeOption,
    now: z.number().finite(),
    windowDays: z.number().positive().finite().default(7),
    minSteps: z.number().int().min(2).default(2),
    maxSteps: z.number().int().min(2).max(50).default(6),
    minRepeats: z.number().int().min(2).default(3),
  })
  .strict()
  .refine((value) => value.maxSteps >= value.minSteps, {
    message: 'expected maxSteps >= minSteps',
    path: ['maxSteps'],
  });

interface Tally {
  steps: string[];
  repeats: number;
  sessions: Set<string>;
  okSteps: number;
  totalSteps: number;
}

/** True when `inner` occurs as a contiguous run inside `outer`. */
function containsRun(outer: readonly string[], inner: readonly string[]): boolean {
  for (let start = 0; start + inner.length <= outer.length; start++) {
    let match = true;
    for (let i = 0; i < inner.length; i++) {
      if (outer[start + i] !== inner[i]) {
        match = false;
        break;
      }
    }
    if (match) return true;
  }
  return false;
}

/**
 * Find tool sequences that recur in the action memories (category `action`) of the last
 * `windowDays` days before `now`.
 *
 * Actions are grouped by session and ordered by `occurredAt` (actions without a session
 * form one stream of their own). Each tool is `metadata.tool`, falling back to the first
 * entity; actions with neither are skipped. Every contiguous run of `minSteps..maxSteps`
 * tools is counted, non-overlapping within a session. **The repeat rule:** a run qualifies
 * when it occurs at least `minRepeats` times over all sessions together (so three runs in
 * one session count as much as one run in each of three sessions); `sessions` tells how
 * spread out it is. Runs made of one tool repeated (`click → click`) are not workflows and
 * are left out.
 *
 * Redundant runs are dropped, longest first: a run contained in a longer reported run is
 * kept only if it has at least `minRepeats` occurrences beyond that longer run's.
 *
 * `successRate` is the share of succeeded steps (`metadata.success !== false`) over all
 * counted occurrences; `confidence = successRate × repeats / (repeats + 1)` (3 repeats of
 * all-successful steps give 0.75, 9 give 0.9).
 *
 * Sorted by confidence, then length, then repeats (all descending), then steps.
 * Throws a ValidationError for bad options.
 */
export async function detectWorkflows(
  store: MemoryStore,
  options: DetectWorkflowsOptions,
): Promise<DetectedWorkflow[]> {
  const settings = parseInput(detectOptionsSchema, options, 'detectWorkflows', 'options');
  const since = new Date(settings.now - settings.windowDays * DAY_MS).toISOString();
  const until = new Date(settings.now).toISOString();
  const memories = await store.listMemories({
    filter: { ...scopeFilter(settings.scope), categories: ['action'], since, until },
    orderBy: 'occurredAt',
    direction: 'asc',
  });

  const streams = new Map<string | null, Memory[]>();
  for (const memory of memories) {
    if (toolOf(memory) === null) continue;
    const stream = streams.get(memory.sessionId);
    if (stream) stream.push(memory);
    else streams.set(memory.sessionId, [memory]);
  }

  const tallies = new Map<string, Tally>();
  for (const [sessionId, stream] of streams) {
    const tools = stream.map((memory) => toolOf(memory) as string);
    const oks = stream.map(succeeded);
    for (let length = settings.minSteps; length <= Math.min(settings.maxSteps, tools.length); length++) {
      // key → index after the last counted occurrence in this stream (non-overlapping counting)
      const nextFree = new Map<string, number>();
      for (let start = 0; start + length <= tools.length; start++) {
        const steps = tools.slice(start, start + length);
        if (steps.every((tool) => tool === steps[0])) continue;
        const key = steps.join('\u0000');
        if ((nextFree.get(key) ?? 0) > start) continue;
        nextFree.set(key, start + length);
        let tally = tallies.get(key);
        if (!tally) {
          tally = { steps, repeats: 0, sessions: new Set(), okSteps: 0, totalSteps: 0 };
          tallies.set(key, tally);
        }
        tally.repeats += 1;
        if (sessionId !== null) tally.sessions.add(sessionId);
        for (let i = start; i < start + length; i++) if (oks[i]) tally.okSteps += 1;
        tally.totalSteps += length;
      }
    }
  }

  const candidates = [...tallies.values()]
    .filter((tally) => tally.repeats >= settings.minRepeats)
    .sort((a, b) => b.steps.length - a.steps.length || b.repeats - a.repeats);
  const accepted: Tally[] = [];
  for (const candidate of candidates) {
    const containers = accepted.filter(
      (longer) => longer.steps.length > candidate.steps.length && containsRun(longer.steps, candidate.steps),
    );
    const covered = containers.reduce((max, longer) => Math.max(max, longer.repeats), 0);
    if (containers.length > 0 && candidate.repeats - covered < settings.minRepeats) continue;
    accepted.push(candidate);
  }

  return accepted
    .map((tally) => {
      const successRate = tally.totalSteps === 0 ? 0 : tally.okSteps / tally.totalSteps;
      return {
        steps: tally.steps,
        repeats: tally.repeats,
        sessions: [...tally.sessions].sort(),
        successRate: round3(successRate),
        confidence: round3((successRate * tally.repeats) / (tally.repeats + 1)),
      };
    })
    .sort(
      (a, b) =>
        b.confidence - a.confidence ||
        b.steps.length - a.steps.length ||
        b.repeats - a.repeats ||
        a.steps.join(ARROW).localeCompare(b.steps.join(ARROW)),
    );
}

// ---------------------------------------------------------------------------------------
// storeWorkflows
// ---------------------------------------------------------------------------------------

/** The content of the workflow memory for a detected workflow; equal inputs give equal text. */
export function workflowContent(workflow: Pick<DetectedWorkflow, 'steps' | 'repeats'>): string {
  return `Recurring workflow (seen ${times(workflow.repeats)}): ${workflow.steps.join(ARROW)}`;
}

/**
 * Turn detected workflows into memory inputs and retain them with `retain` (for example
 * `(inputs) => memory.retain(inputs)`). Each input is `kind: 'observation'`,
 * `category: 'workflow'`, the tools as entities, content like
 * `Recurring workflow (seen 3 times): navigate → fill_form → click_submit` and metadata
 * `{ steps, repeats, confidence, sessions, successRate }`.
 *
 * No `occurredAt` is set and the content depends only on the steps and the repeat count,
 * so running detection again and storing the same result is recognised by retain as an
 * identical re-retain and not stored twice. A workflow seen more often later is a new
 * memory ("seen 4 times").
 *
 * Resolves to what `retain` resolved to, or null (without calling it) when `detected` is empty.
 */
export async function storeWorkflows<R>(
  detected: readonly DetectedWorkflow[],
  retain: (inputs: MemoryInput[]) => Promise<R>,
): Promise<R | null> {
  if (detected.length === 0) return null;
  const inputs: MemoryInput[] = detected.map((workflow) => ({
    kind: 'observation',
    category: 'workflow',
    content: workflowContent(workflow),
    entities: [...new Set(workflow.steps)],
    importance: Math.max(0.5, Math.min(1, workflow.confidence)),
    metadata: {
      steps: [...workflow.steps],
      repeats: workflow.repeats,
      confidence: workflow.confidence,
      successRate: workflow.successRate,
      sessions: [...workflow.sessions],
    },
  }));
  return retain(inputs);
}

// ---------------------------------------------------------------------------------------
// workflowFromSession
// ---------------------------------------------------------------------------------------

/** Options of `workflowFromSession`. */
export interface WorkflowFromSessionOptions {
  /** The current time, epoch milliseconds; becomes `createdAt`, `updatedAt` and `lastUsedAt`. */
  now: number;
  /** Only memories of this scope; also the procedure's scope. Default: every scope, procedure scope `{}`. */
  scope?: Scope;
}

const fromSessionSchema = z
  .object({
    sessionId: z.string().min(1),
    name: z.string().trim().min(1).max(512),
    options: z.object({ now: z.number().finite(), scope: scopeOption }).strict(),
  })
  .strict();

/** A readable step for one action, e.g. `mouse_click({"x":500,"y":300})`. */
function stepOf(memory: Memory): string {
  const tool = toolOf(memory);
  if (tool === null) return memory.abstract || (memory.content.split('\n')[0] ?? memory.content);
  const parameters = memory.metadata.parameters;
  const hasParameters =
    parameters !== undefined &&
    parameters !== null &&
    !(typeof parameters === 'object' && !Array.isArray(parameters) && Object.keys(parameters).length === 0);
  return `${tool}(${hasParameters ? stableJson(parameters) : ''})`;
}

function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'workflow';
}

/**
 * Build a reusable {@link Procedure} from one session: its successful action memories
 * (category `action`, `metadata.success !== false`), in `occurredAt` order, become the
 * steps, each written as `tool(<parameters as canonical JSON>)`.
 *
 * The procedure has `source: 'session'`, `title: name`, `triggerExamples: [name]`,
 * `successCount: 1` and metadata `{ sessionId, actionIds }`. Its id is
 * `<slug of name>-<8 hex digits from scope and session>`, so building it again from the
 * same session replaces it. Nothing is written: store it with `store.procedures.upsert`.
 *
 * Throws a ValidationError when the arguments are malformed or the session has no
 * successful actions.
 */
export async function workflowFromSession(
  store: MemoryStore,
  sessionId: string,
  name: string,
  options: WorkflowFromSessionOptions,
): Promise<Procedure> {
  const parsed = parseInput(fromSessionSchema, { sessionId, name, options }, 'workflowFromSession');
  const scope = parsed.options.scope;
  const memories = await store.listMemories({
    filter: { ...scopeFilter(scope), categories: ['action'], sessionId: parsed.sessionId },
    orderBy: 'occurredAt',
    direction: 'asc',
  });
  const actions = memories.filter(succeeded);
  if (actions.length === 0) {
    throw new ValidationError(
      [
        {
          field: 'sessionId',
          message: `session "${parsed.sessionId}" has no successful action memories${memories.length > 0 ? ` (${memories.length} failed)` : ''}`,
        },
      ],
      {
        component: 'workflowFromSession',
        suggestion:
          'Capture tool calls with sessionId set (createCapture or withCapture) and pick a session with successful actions.',
      },
    );
  }
  const at = new Date(parsed.options.now).toISOString();
  const hash = createHash('sha256')
    .update(stableJson(scope ?? {}))
    .update('\u0000')
    .update(parsed.sessionId)
    .digest('hex')
    .slice(0, 8);
  return {
    id: `${slugOf(parsed.name)}-${hash}`,
    title: parsed.name,
    triggerExamples: [parsed.name],
    steps: actions.map(stepOf),
    whatWorks: [],
    whatDoesNotWork: [],
    outputFormat: null,
    successCount: 1,
    failureCount: 0,
    lastUsedAt: at,
    source: 'session',
    videoEvidence: [],
    scope: scope ?? {},
    createdAt: at,
    updatedAt: at,
    metadata: { sessionId: parsed.sessionId, actionIds: actions.map((memory) => memory.id) },
  };
}

// ---------------------------------------------------------------------------------------
// suggest
// ---------------------------------------------------------------------------------------

/** Options of `suggest`. */
export interface SuggestOptions {
  /** Only memories of this scope. Default: every scope. */
  scope?: Scope;
  /** Maximum suggestions. Default 5. */
  k?: number;
  /** Embeds the context; must be the embedder the store's vectors were built with. */
  embed: (texts: string[]) => Promise<Float32Array[]>;
}

/** One suggestion of `suggest`. */
export interface Suggestion {
  /** The memory's id, for reference or replay. */
  memoryId: string;
  /** `action` or `workflow`. */
  category: string;
  /** The memory's content. */
  content: string;
  /** Cosine similarity to the context, -1..1. */
  score: number;
}

const suggestOptionsSchema = z
  .object({
    scope: scopeOption,
    k: positiveInt.max(1000).default(5),
    embed: z.custom<(texts: string[]) => Promise<Float32Array[]>>((value) => typeof value === 'function', {
      message: 'expected a function (texts) => Promise<Float32Array[]>',
    }),
  })
  .strict();

/** Suggestable: a workflow memory, or an action memory that explicitly succeeded. */
function suggestable(memory: Memory): boolean {
  if (memory.category === 'workflow') return true;
  return memory.category === 'action' && memory.metadata.success === true;
}

function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return Number.NaN;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Past successful actions (category `action` with `metadata.success === true`) and
 * workflow memories (category `workflow`) most similar to `context` (e.g. "login form
 * with email and password fields"), best first, with their memory ids.
 *
 * Uses `store.searchVector` with a category filter when the store has it (fetching more
 * hits until `k` pass the success check or the candidates run out), and otherwise scans
 * the embeddings of the matching memories. Invalidated memories are still eligible only
 * if the store returns them; memories without an embedding are never suggested.
 * Throws a ValidationError for bad options.
 */
export async function suggest(store: MemoryStore, context: string, options: SuggestOptions): Promise<Suggestion[]> {
  const settings = parseInput(suggestOptionsSchema, options, 'suggest', 'options');
  const text = parseInput(z.string().trim().min(1, 'expected a non-empty string'), context, 'suggest', 'context');
  const [vector] = await settings.embed([text]);
  if (!(vector instanceof Float32Array)) {
    throw new ValidationError([{ field: 'options.embed', message: 'expected embed to resolve to [Float32Array]' }], {
      component: 'suggest',
    });
  }
  const filter: MemoryFilter = { ...scopeFilter(settings.scope), categories: ['action', 'workflow'] };

  const scored: Array<{ memory: Memory; score: number }> = [];
  if (store.capabilities.vectorSearch && typeof store.searchVector === 'function') {
    const total = await store.countMemories(filter);
    let limit = Math.min(Math.max(settings.k * 4, 20), Math.max(total, 1));
    for (;;) {
      const hits = await store.searchVector({ vector, filter, limit });
      const memories = new Map((await store.getMemories(hits.map((hit) => hit.id))).map((m) => [m.id, m]));
      scored.length = 0;
      for (const hit of hits) {
        const memory = memories.get(hit.id);
        if (memory && suggestable(memory)) scored.push({ memory, score: hit.score });
      }
      if (scored.length >= settings.k || hits.length < limit || limit >= total) break;
      limit = Math.min(limit * 4, total);
    }
  } else {
    const memories = (await store.listMemories({ filter })).filter(suggestable);
    const embeddings = await store.getEmbeddings(memories.map((memory) => memory.id));
    for (const memory of memories) {
      const embedding = embeddings.get(memory.id);
      if (!embedding) continue;
      const score = cosine(vector, embedding);
      if (Number.isFinite(score)) scored.push({ memory, score });
    }
  }

  return scored
    .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : 1))
    .slice(0, settings.k)
    .map(({ memory, score }) => ({ memoryId: memory.id, category: memory.category, content: memory.content, score }));
}

// ---------------------------------------------------------------------------------------
// warn
// ---------------------------------------------------------------------------------------

/** An action about to be taken, for `warn`. */
export interface PlannedAction {
  /** Tool name, as captured. */
  tool: string;
  /** When given, only past calls with equal parameters (compared as canonical JSON) count. */
  parameters?: Record<string, unknown>;
}

/** A successful action taken after a failure of the warned tool, from `warn`. */
export interface Alternative {
  /** The memory's id. */
  memoryId: string;
  /** Its tool. */
  tool: string;
  /** Its content. */
  content: string;
}

/** What `warn` found. */
export interface ActionWarning {
  /** The tool asked about. */
  tool: string;
  /** Past calls found. */
  attempts: number;
  /** Of which succeeded. */
  successes: number;
  /** Of which failed. */
  failures: number;
  /** `successes / attempts`, 0..1; 0 when there is no history. */
  successRate: number;
  /**
   * E.g. `mouse_click failed 5 times, success rate 0%`, or `mouse_click succeeded 4 times,
   * success rate 100%` when it never failed; null when there is no history.
   */
  message: string | null;
  /** Up to 3 successful actions of other tools taken after the failures in the same sessions. */
  alternatives: Alternative[];
}

const plannedActionSchema = z
  .object({
    tool: z.string().trim().min(1),
    parameters: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * How a tool fared before: the past captured calls (category `action` or `screen`) of
 * `action.tool` — and, when `action.parameters` is given, with equal parameters — counted
 * into attempts, successes and failures, with a message such as
 * `mouse_click failed 5 times, success rate 0%`.
 *
 * `alternatives` are up to 3 successful action memories of other tools, taken in the same
 * session at or after one of the failures, nearest first and without repeats — what
 * worked once this tool had failed. Throws a ValidationError for a malformed action.
 */
export async function warn(
  store: MemoryStore,
  action: PlannedAction,
  options: { scope?: Scope } = {},
): Promise<ActionWarning> {
  const planned = parseInput(plannedActionSchema, action, 'warn', 'action');
  const scope = parseInput(scopeOption, options?.scope, 'warn', 'options.scope');
  const wanted = planned.parameters === undefined ? null : stableJson(planned.parameters);
  const candidates = await store.listMemories({
    filter: { ...scopeFilter(scope), categories: ['action', 'screen'], entities: [planned.tool] },
    orderBy: 'occurredAt',
    direction: 'asc',
  });
  const past = candidates.filter(
    (memory) =>
      toolOf(memory) === planned.tool && (wanted === null || stableJson(memory.metadata.parameters ?? {}) === wanted),
  );
  const failed = past.filter((memory) => !succeeded(memory));
  const attempts = past.length;
  const failures = failed.length;
  const successes = attempts - failures;
  const successRate = attempts === 0 ? 0 : successes / attempts;
  let message: string | null = null;
  if (attempts > 0) {
    message =
      failures > 0
        ? `${planned.tool} failed ${times(failures)}, success rate ${percent(successRate)}`
        : `${planned.tool} succeeded ${times(successes)}, success rate ${percent(successRate)}`;
  }

  const alternatives: Alternative[] = [];
  const seen = new Set<string>();
  const sessionCache = new Map<string, Memory[]>();
  for (const failure of failed) {
    if (alternatives.length >= 3) break;
    if (failure.sessionId === null) continue;
    let session = sessionCache.get(failure.sessionId);
    if (!session) {
      session = await store.listMemories({
        filter: { ...scopeFilter(scope), categories: ['action'], sessionId: failure.sessionId },
        orderBy: 'occurredAt',
        direction: 'asc',
      });
      sessionCache.set(failure.sessionId, session);
    }
    for (const memory of session) {
      if (alternatives.length >= 3) break;
      if (memory.occurredAt < failure.occurredAt || seen.has(memory.id)) continue;
      const tool = toolOf(memory);
      if (tool === null || tool === planned.tool || memory.metadata.success !== true) continue;
      seen.add(memory.id);
      alternatives.push({ memoryId: memory.id, tool, content: memory.content });
      break; // the nearest one per failure first; later failures add more
    }
  }
  // Too few from "nearest per failure": fill from the remaining successes after failures.
  if (alternatives.length < 3) {
    for (const failure of failed) {
      if (alternatives.length >= 3 || failure.sessionId === null) continue;
      for (const memory of sessionCache.get(failure.sessionId) ?? []) {
        if (alternatives.length >= 3) break;
        if (memory.occurredAt < failure.occurredAt || seen.has(memory.id)) continue;
        const tool = toolOf(memory);
        if (tool === null || tool === planned.tool || memory.metadata.success !== true) continue;
        seen.add(memory.id);
        alternatives.push({ memoryId: memory.id, tool, content: memory.content });
      }
    }
  }

  return { tool: planned.tool, attempts, successes, failures, successRate: round3(successRate), message, alternatives };
}

// ---------------------------------------------------------------------------------------
// analyzePatterns
// ---------------------------------------------------------------------------------------

/** Options of `analyzePatterns`. */
export interface AnalyzePatternsOptions {
  /** Category of memories to analyse. Default `action`. */
  category?: string;
  /** What to measure. Only `success_rate` is supported. Default `success_rate`. */
  metric?: 'success_rate';
  /** Only memories of this scope. Default: every scope. */
  scope?: Scope;
  /** Tools with fewer attempts are left out. Default 3. */
  minAttempts?: number;
}

/** One tool's record, from `analyzePatterns`. */
export interface ToolPattern {
  /** Tool name. */
  tool: string;
  /** Calls found. */
  attempts: number;
  /** Of which succeeded (`metadata.success !== false`). */
  successes: number;
  /** Of which failed. */
  failures: number;
  /** `successes / attempts`, rounded to 3 decimals. */
  successRate: number;
  /** E.g. `fill_form succeeds 95% of the time (19 of 20 attempts)`. */
  insight: string;
}

/** What `analyzePatterns` found. */
export interface PatternAnalysis {
  /** Tools with success rate ≥ 0.8, best first (then more attempts first, then by name). */
  high: ToolPattern[];
  /** Tools with success rate ≤ 0.3, worst first (then more attempts first, then by name). */
  low: ToolPattern[];
  /** Every tool with at least `minAttempts` attempts, by name. */
  tools: ToolPattern[];
}

const analyzeOptionsSchema = z
  .object({
    category: z.string().trim().min(1).default('action'),
    metric: z.literal('success_rate').default('success_rate'),
    scope: scopeOption,
    minAttempts: positiveInt.default(3),
  })
  .strict();

/**
 * Success rates per tool over the memories of `category` (default `action`): tools with
 * at least `minAttempts` calls and a success rate of at least 0.8 are `high`, those at
 * most 0.3 are `low`. Each entry has an `insight` sentence, e.g.
 * `fill_form succeeds 95% of the time (19 of 20 attempts)` or
 * `mouse_click fails 60% of the time (6 of 10 attempts)`.
 * Throws a ValidationError for bad options (any metric other than `success_rate`).
 */
export async function analyzePatterns(
  store: MemoryStore,
  options: AnalyzePatternsOptions = {},
): Promise<PatternAnalysis> {
  const settings = parseInput(analyzeOptionsSchema, options, 'analyzePatterns', 'options');
  const memories = await store.listMemories({
    filter: { ...scopeFilter(settings.scope), categories: [settings.category] },
  });
  const counts = new Map<string, { attempts: number; successes: number }>();
  for (const memory of memories) {
    const tool = toolOf(memory);
    if (tool === null) continue;
    const count = counts.get(tool) ?? { attempts: 0, successes: 0 };
    count.attempts += 1;
    if (succeeded(memory)) count.successes += 1;
    counts.set(tool, count);
  }
  const tools: ToolPattern[] = [];
  for (const [tool, { attempts, successes }] of counts) {
    if (attempts < settings.minAttempts) continue;
    const failures = attempts - successes;
    const rate = successes / attempts;
    const insight =
      rate >= 0.5
        ? `${tool} succeeds ${percent(rate)} of the time (${successes} of ${attempts} attempts)`
        : `${tool} fails ${percent(1 - rate)} of the time (${failures} of ${attempts} attempts)`;
    tools.push({ tool, attempts, successes, failures, successRate: round3(rate), insight });
  }
  tools.sort((a, b) => a.tool.localeCompare(b.tool));
  const high = tools
    .filter((item) => item.successRate >= 0.8)
    .sort((a, b) => b.successRate - a.successRate || b.attempts - a.attempts || a.tool.localeCompare(b.tool));
  const low = tools
    .filter((item) => item.successRate <= 0.3)
    .sort((a, b) => a.successRate - b.successRate || b.attempts - a.attempts || a.tool.localeCompare(b.tool));
  return { high, low, tools };
}
