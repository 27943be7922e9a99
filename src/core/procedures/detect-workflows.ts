import { z } from 'zod';
import type { Memory, MemoryInput, Scope } from '../spec/memory.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { DAY_MS } from '../utils/time.js';
import { parseInput } from '../utils/validate.js';

import { round3, scopeFilter, scopeOption, succeeded, times, toolOf } from './action-memories.js';

const ARROW = ' → ';

/**
 * Options of `detectWorkflows`.
 *
 * @group Workflows and suggestions
 */
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

/**
 * A tool sequence that recurs, found by `detectWorkflows`.
 *
 * @group Workflows and suggestions
 */
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
export async function detectWorkflows(given: StoreLike, options: DetectWorkflowsOptions): Promise<DetectedWorkflow[]> {
  const store = coreStore(given);
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
