import { applyTallies } from '../shared/record-tallies.js';
import { ValidationError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';
import type { CoreStore } from '../store/store-facade.js';

/** A ValidationError for one field of a lifecycle call. */
export function invalid(component: string, field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }], { component });
}

/** Reject a `now` that is not epoch milliseconds. */
export function checkNow(component: string, now: number): void {
  if (!Number.isFinite(now)) throw invalid(component, 'now', 'expected epoch milliseconds');
}

/** Delete memories and take them off entity and session tallies. Runs in the caller's transaction. */
export async function removeMemories(store: CoreStore, memories: readonly Memory[], nowIso: string): Promise<number> {
  if (memories.length === 0) return 0;
  const deleted = await store.deleteMemories(memories.map((memory) => memory.id));
  await applyTallies(store, memories, -1, nowIso);
  return deleted;
}
