/** Correcting a fact: the memories a new one supersedes stop being valid, softly. */
import type { MemoryEngine } from '../engine/memory-engine.js';
import { memoriesInScope } from '../shared/require-memory.js';
import { ValidationError } from '../spec/errors.js';
import { type Memory, sameScope } from '../spec/memory.js';
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
 * client's scope, or of another scope than the new memory's, is a ValidationError, so nothing
 * is written.
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
      // A fact is only ever replaced by its owner's word: also through an admin client, which
      // sees both scopes, a memory of one scope never ends another scope's.
      if (!sameScope(old.scope, memory.scope))
        throw new ValidationError(
          [
            {
              field: `${field}.supersedes[${index}]`,
              message: `expected a memory of the same scope as the new one (memory "${id}" belongs to another scope)`,
            },
          ],
          { component: 'retain', suggestion: 'Retain the correction in the scope of the memory it corrects.' },
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
