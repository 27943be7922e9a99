import { z } from 'zod';
import { type Memory, type Scope, scopeSchema } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';

// Captured tool calls are `experience` memories of category `action` (or `screen`) whose
// metadata holds `{ captured, type, tool, success, parameters?, durationMs? }` and whose
// first entity is the tool name; these helpers read them.

/** The tool a memory records: `metadata.tool`, else its first entity, else null. */
export function toolOf(memory: Memory): string | null {
  const tool = memory.metadata.tool;
  if (typeof tool === 'string' && tool.trim()) return tool;
  return memory.entities[0] ?? null;
}

/** A captured call failed only when `metadata.success` is exactly `false`. */
export function succeeded(memory: Memory): boolean {
  return memory.metadata.success !== false;
}

/** Rounded to three decimals, for rates people read. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** A rate as a whole percentage, e.g. `75%`. */
export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** "1 time", "3 times". */
export function times(count: number): string {
  return count === 1 ? '1 time' : `${count} times`;
}

/** The filter field for an optional scope. */
export function scopeFilter(scope: Scope | undefined): Pick<MemoryFilter, 'scope'> {
  return scope === undefined ? {} : { scope };
}

/** Schema of an optional scope option. */
export const scopeOption = scopeSchema.optional();
/** Schema of a positive whole number. */
export const positiveInt = z.number().int().positive();
