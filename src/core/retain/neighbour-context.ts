import type { Memory } from '../spec/memory.js';

/**
 * Index each memory with the text of up to `window` neighbours on either side, so a turn of
 * a conversation is found by what was said around it. Neighbours are the other inputs of the
 * same call with the same session and scope, in input order; inputs with their own
 * `context` keep it.
 */
export function addNeighbourContext(memories: Memory[], inputs: readonly { context?: string }[], window: number) {
  const groups = new Map<string, number[]>();
  memories.forEach((memory, index) => {
    const key = JSON.stringify([memory.sessionId, memory.scope.agentId, memory.scope.userId, memory.scope.namespace]);
    const members = groups.get(key);
    if (members) members.push(index);
    else groups.set(key, [index]);
  });
  for (const members of groups.values()) {
    members.forEach((index, position) => {
      if (inputs[index]?.context !== undefined) return;
      const around = members
        .slice(Math.max(0, position - window), position + window + 1)
        .filter((other) => other !== index)
        .map((other) => memories[other]!.content);
      if (around.length > 0) memories[index]!.context = around.join('\n');
    });
  }
}
