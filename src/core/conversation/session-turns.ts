import type { Memory } from '../spec/memory.js';

/**
 * The position of a windowed memory in its session (`metadata.turn`): 0 for the first turn a
 * session retained with a context window, counting on across calls.
 */
export const TURN_KEY = 'turn';

/**
 * Neighbours on either side a conversation turn is indexed with, and recalled with under
 * `expand: 'window'`: the window bench:locomo measured best with each half of its
 * conversations held out.
 *
 * @group Retain
 */
export const TURN_WINDOW = 2;

/** The turn number a memory holds, when it was retained with a window in a session. */
export function turnOf(memory: Pick<Memory, 'metadata'>): number | undefined {
  const turn = memory.metadata[TURN_KEY];
  return typeof turn === 'number' && Number.isInteger(turn) ? turn : undefined;
}

/** The session and exact scope a turn belongs to: turns are neighbours only within one. */
export function turnGroupKey(memory: Pick<Memory, 'sessionId' | 'scope'>): string {
  return JSON.stringify([memory.sessionId, memory.scope.agentId, memory.scope.userId, memory.scope.namespace]);
}
