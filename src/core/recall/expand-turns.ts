import { TURN_WINDOW, turnGroupKey, turnOf } from '../conversation/session-turns.js';
import type { Memory } from '../spec/memory.js';
import type { CoreStore } from '../store/store-facade.js';
import type { RecallResult } from './recall-result.js';

/**
 * What a recalled turn of a conversation comes with: `turn` alone, the `window` of turns
 * around it, or its whole `session`.
 *
 * @group Recall
 */
export const EXPAND_MODES = ['turn', 'window', 'session'] as const;
/**
 * One of {@link EXPAND_MODES}.
 *
 * @group Recall
 */
export type ExpandMode = (typeof EXPAND_MODES)[number];

/**
 * Give each recalled turn (a memory numbered in its session, `metadata.turn`) the turns around
 * it, in order, as `turns`; a later result those turns already hold is folded into the earlier
 * one rather than returned twice. Only turns of the result's own session and exact scope are
 * read, so an expansion never reaches past the scope the result came from.
 */
export async function expandTurns<R extends Pick<RecallResult, 'memory' | 'turns'>>(
  results: readonly R[],
  store: CoreStore,
  mode: ExpandMode,
): Promise<R[]> {
  if (mode === 'turn') return [...results];
  const sessions = new Map<string, Memory[]>();
  const covered = new Set<string>();
  const expanded: R[] = [];
  for (const result of results) {
    const { memory } = result;
    if (covered.has(memory.id)) continue;
    const turn = turnOf(memory);
    if (turn === undefined || memory.sessionId === null) {
      expanded.push(result);
      continue;
    }
    const key = turnGroupKey(memory);
    let turns = sessions.get(key);
    if (!turns) {
      const stored = await store.listMemories({ filter: { sessionId: memory.sessionId, scope: memory.scope } });
      turns = stored
        .filter((other) => turnOf(other) !== undefined && turnGroupKey(other) === key)
        .sort((a, b) => turnOf(a)! - turnOf(b)!);
      sessions.set(key, turns);
    }
    const around = mode === 'session' ? turns : turns.filter((other) => Math.abs(turnOf(other)! - turn) <= TURN_WINDOW);
    for (const other of around) covered.add(other.id);
    expanded.push(around.length > 1 ? { ...result, turns: around } : result);
  }
  return expanded;
}
