import type { MemoryEngine } from '../engine/memory-engine.js';
import { isEmptyScope } from '../search/scope-boundary.js';
import { NotFoundError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';

/**
 * The memory with this id, or a NotFoundError naming the component that asked. A memory of
 * another scope is not found either: to a scoped client it does not exist.
 */
export async function requireMemory(engine: MemoryEngine, id: string, component: string): Promise<Memory> {
  // Read through the scope filter, so a scoped client never even reads another tenant's row.
  const [memory] = isEmptyScope(engine.scope)
    ? await engine.store.getMemories([id])
    : await engine.store.listMemories({ filter: { ids: [id], scope: engine.scope } });
  if (!memory) throw new NotFoundError('memory', id, { component });
  return memory;
}
