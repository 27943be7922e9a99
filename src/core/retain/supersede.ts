/** Correcting a fact: the memories a new one supersedes stop being valid, softly. */
import type { MemoryEngine } from '../engine/memory-engine.js';
import { memoriesInScope } from '../shared/require-memory.js';
import { ValidationError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';
import type { MemoryRecord } from '../spec/store.js';

/** A new memory and the ids of the older ones it corrects. */
export interface Correction {
  /** The new memory. */
  memory: Memory;
  /** Ids it supersedes. */
  supersedes: readonly string[];
  /** The input field, for errors (`input[2].supersedes`). */
  field: string;
}

/**
 * The superseded memories, invalidated: `validTo` when the new fact became true (or now, when
 * that is before the old one began), `supersededBy` the new memory. An id that is not in the
 * client's scope is a ValidationError, so nothing is written.
 */
export async function supersededRecords(
  engine: MemoryEngine,
  corrections: readonly Correction[],
  now: string,
): Promise<MemoryRecord[]> {
  const ids = [...new Set(corrections.flatMap((correction) => correction.supersedes))];
  if (ids.length === 0) return [];
  const found = new Map((await memoriesInScope(engine, ids)).map((memory) => [memory.id, memory]));
  const embeddings = await engine.store.getEmbeddings(ids);
  const records: MemoryRecord[] = [];
  for (const { memory, supersedes, field } of corrections) {
    supersedes.forEach((id, index) => {
      const old = found.get(id);
      if (!old || id === memory.id)
        throw new ValidationError(
          [{ field: `${field}.supersedes[${index}]`, message: `expected the id of an existing memory (got "${id}")` }],
          {
            component: 'retain',
          },
        );
      const validTo = memory.validFrom >= old.validFrom ? memory.validFrom : now;
      records.push({
        memory: {
          ...old,
          validTo,
          invalidationReason: `superseded by ${memory.id}`,
          supersededBy: memory.id,
          updatedAt: now,
        },
        embedding: embeddings.get(id) ?? null,
      });
    });
  }
  return records;
}
