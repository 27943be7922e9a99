import { z } from 'zod';
import type { Memory, Scope } from '../spec/memory.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { stableJson } from '../utils/stable-json.js';
import { parseInput } from '../utils/validate.js';
import { percent, round3, scopeFilter, scopeOption, succeeded, times, toolOf } from './action-memories.js';

/**
 * An action about to be taken, for `warn`.
 *
 * @group Workflows and suggestions
 */
export interface PlannedAction {
  /** Tool name, as captured. */
  tool: string;
  /** When given, only past calls with equal parameters (compared as canonical JSON) count. */
  parameters?: Record<string, unknown>;
}

/**
 * A successful action taken after a failure of the warned tool, from `warn`.
 *
 * @group Workflows and suggestions
 */
export interface Alternative {
  /** The memory's id. */
  memoryId: string;
  /** Its tool. */
  tool: string;
  /** Its content. */
  content: string;
}

/**
 * What `warn` found.
 *
 * @group Workflows and suggestions
 */
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
  given: StoreLike,
  action: PlannedAction,
  options: { scope?: Scope } = {},
): Promise<ActionWarning> {
  const store = coreStore(given);
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
  // Successful calls of another tool made after `failure` in its session, up to `most` of them.
  const takeAlternatives = (session: readonly Memory[], failure: Memory, most: number) => {
    let taken = 0;
    for (const memory of session) {
      if (alternatives.length >= 3 || taken >= most) break;
      if (memory.occurredAt < failure.occurredAt || seen.has(memory.id)) continue;
      const tool = toolOf(memory);
      if (tool === null || tool === planned.tool || memory.metadata.success !== true) continue;
      seen.add(memory.id);
      alternatives.push({ memoryId: memory.id, tool, content: memory.content });
      taken++;
    }
  };
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
    // The nearest one per failure first; later failures add more.
    takeAlternatives(session, failure, 1);
  }
  // Too few from "nearest per failure": fill from the remaining successes after failures.
  if (alternatives.length < 3) {
    for (const failure of failed) {
      if (alternatives.length >= 3 || failure.sessionId === null) continue;
      takeAlternatives(sessionCache.get(failure.sessionId) ?? [], failure, 3);
    }
  }

  return { tool: planned.tool, attempts, successes, failures, successRate: round3(successRate), message, alternatives };
}
