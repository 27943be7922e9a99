import { z } from 'zod';
import type { Scope } from '../spec/memory.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { parseInput } from '../utils/validate.js';
import { percent, positiveInt, round3, scopeFilter, scopeOption, succeeded, toolOf } from './action-memories.js';

/**
 * Options of `analyzePatterns`.
 *
 * @group Workflows and suggestions
 */
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

/**
 * One tool's record, from `analyzePatterns`.
 *
 * @group Workflows and suggestions
 */
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

/**
 * What `analyzePatterns` found.
 *
 * @group Workflows and suggestions
 */
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
  given: StoreLike,
  options: AnalyzePatternsOptions = {},
): Promise<PatternAnalysis> {
  const store = coreStore(given);
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
