import { z } from 'zod';
import { searchVector } from '../search/native-or-scan.js';
import { ValidationError } from '../spec/errors.js';
import type { Memory, Scope } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { parseInput } from '../utils/validate.js';
import { positiveInt, scopeFilter, scopeOption } from './action-memories.js';

/** Options of `suggest`. */
export interface SuggestOptions {
  /** Only memories of this scope. Default: every scope. */
  scope?: Scope;
  /** Maximum suggestions. Default 5. */
  k?: number;
  /** Embeds the context; must be the embedder the store's vectors were built with. */
  embed: (texts: string[]) => Promise<Float32Array[]>;
}

/**
 * One suggestion of `suggest`.
 *
 * @group Workflows and suggestions
 */
export interface Suggestion {
  /** The memory's id, for reference or replay. */
  memoryId: string;
  /** `action` or `workflow`. */
  category: string;
  /** The memory's content. */
  content: string;
  /** Cosine similarity to the context, -1..1. */
  score: number;
}

const suggestOptionsSchema = z
  .object({
    scope: scopeOption,
    k: positiveInt.max(1000).default(5),
    embed: z.custom<(texts: string[]) => Promise<Float32Array[]>>((value) => typeof value === 'function', {
      message: 'expected a function (texts) => Promise<Float32Array[]>',
    }),
  })
  .strict();

/** Suggestable: a workflow memory, or an action memory that explicitly succeeded. */
function suggestable(memory: Memory): boolean {
  if (memory.category === 'workflow') return true;
  return memory.category === 'action' && memory.metadata.success === true;
}

/**
 * Past successful actions (category `action` with `metadata.success === true`) and
 * workflow memories (category `workflow`) most similar to `context` (e.g. "login form
 * with email and password fields"), best first, with their memory ids.
 *
 * Searches the vectors with a category filter (natively or by a scan, see `searchVector`),
 * fetching more hits until `k` pass the success check or the candidates run out. Invalidated memories are still eligible only
 * if the store returns them; memories without an embedding are never suggested.
 * Throws a ValidationError for bad options.
 */
export async function suggest(given: StoreLike, context: string, options: SuggestOptions): Promise<Suggestion[]> {
  const store = coreStore(given);
  const settings = parseInput(suggestOptionsSchema, options, 'suggest', 'options');
  const text = parseInput(z.string().trim().min(1, 'expected a non-empty string'), context, 'suggest', 'context');
  const [vector] = await settings.embed([text]);
  if (!(vector instanceof Float32Array)) {
    throw new ValidationError([{ field: 'options.embed', message: 'expected embed to resolve to [Float32Array]' }], {
      component: 'suggest',
    });
  }
  const filter: MemoryFilter = { ...scopeFilter(settings.scope), categories: ['action', 'workflow'] };

  const scored: Array<{ memory: Memory; score: number }> = [];
  const total = await store.countMemories(filter);
  let limit = Math.min(Math.max(settings.k * 4, 20), Math.max(total, 1));
  // Failed actions share the category filter, so widen the search until k pass or none are left.
  for (;;) {
    const hits = await searchVector(store, { vector, filter, limit });
    const memories = new Map((await store.getMemories(hits.map((hit) => hit.id))).map((m) => [m.id, m]));
    scored.length = 0;
    for (const hit of hits) {
      const memory = memories.get(hit.id);
      if (memory && suggestable(memory)) scored.push({ memory, score: hit.score });
    }
    if (scored.length >= settings.k || hits.length < limit || limit >= total) break;
    limit = Math.min(limit * 4, total);
  }

  return scored
    .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : 1))
    .slice(0, settings.k)
    .map(({ memory, score }) => ({ memoryId: memory.id, category: memory.category, content: memory.content, score }));
}
