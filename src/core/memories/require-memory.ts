import type { MemoryEngine } from '../engine/memory-engine.js';
import { NotFoundError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';

/** The memory with this id, or a NotFoundError naming the component that asked. */
export async function requireMemory(engine: MemoryEngine, id: string, component: string): Promise<Memory> {
  const [memory] = await engine.store.getMemories([id]);
  if (!memory) throw new NotFoundError('memory', id, { component });
  return memory;
}
