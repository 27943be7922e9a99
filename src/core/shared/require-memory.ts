import type { MemoryEngine } from '../engine/memory-engine.js';
import { isEmptyScope } from '../search/scope-boundary.js';
import { NotFoundError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';

/**
 * The memories with these ids that lie in the client's scope, read through the scope filter
 * so a scoped client never even reads another tenant's row. Missing ids are left out.
 */
export function memoriesInScope(engine: MemoryEngine, ids: readonly string[]): Promise<Memory[]> {
  return isEmptyScope(engine.scope)
    ? engine.store.getMemories(ids)
    : engine.store.listMemories({ filter: { ids: [...ids], scope: engine.scope } });
}

/**
 * The memory with this id, or a NotFoundError naming the component that asked. A memory of
 * another scope is not found either: to a scoped client it does not exist.
 */
export async function requireMemory(engine: MemoryEngine, id: string, component: string): Promise<Memory> {
  const [memory] = await memoriesInScope(engine, [id]);
  if (!memory) throw new NotFoundError('memory', id, { component });
  return memory;
}
