/** Reading a memory's place among the versions of its fact: when it was true, what it replaced. */
import type { Memory } from '../spec/memory.js';

/** Whether `memory` was true at `at` (ISO): `validFrom <= at < validTo`. */
export function validAt(memory: Memory, at: string): boolean {
  return memory.validFrom <= at && (memory.validTo === null || memory.validTo > at);
}

/**
 * The ids a memory superseded: the reverse of `supersededBy`, kept in `metadata.supersedes`
 * by whatever linked them (retain's `supersedes`, the supersession rules, `correct`).
 */
export function supersededIds(memory: Memory): string[] {
  const value = memory.metadata.supersedes;
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/** `memory` with `id` added to the ids it superseded. */
export function withSuperseded(memory: Memory, id: string): Memory {
  const ids = supersededIds(memory);
  return ids.includes(id) ? memory : { ...memory, metadata: { ...memory.metadata, supersedes: [...ids, id] } };
}

/** `memory` with `id` taken out of the ids it superseded (a late arrival moved into its chain). */
export function withoutSuperseded(memory: Memory, id: string): Memory {
  const ids = supersededIds(memory);
  if (!ids.includes(id)) return memory;
  const rest = ids.filter((other) => other !== id);
  const { supersedes: _dropped, ...metadata } = memory.metadata;
  return { ...memory, metadata: rest.length > 0 ? { ...metadata, supersedes: rest } : metadata };
}
