/**
 * Recall that knows which version of a fact is current. A superseded memory still matches
 * its words, so it stays a result, but below the memory that superseded it — which is
 * brought in when only the old one matched. Asked about the past ("before", "used to", an
 * `asOf` date or a span that ended), the versions true then come first instead. Memories
 * invalidated by hand (no successor) stay out unless `includeInvalid`.
 */
import { supersededIds, validAt } from '../search/memory-versions.js';
import { insideScope } from '../search/scope-boundary.js';
import type { Memory, Scope } from '../spec/memory.js';
import type { CoreStore } from '../store/store-facade.js';
import type { RecallResult } from './recall-result.js';

type Ranked = Omit<RecallResult, 'tokens'>;

/** How the validity pass reads time for one recall. */
export interface TruthSettings {
  /** `now`: current facts first. `asOf`: what was true at `at`. `before`: earlier versions first. */
  mode: 'now' | 'asOf' | 'before';
  /** The instant validity is read at (ISO). */
  at: string;
  /** Keep memories invalidated by hand, and those not yet valid. */
  includeInvalid: boolean;
  /**
   * For `asOf` read from a span the query names: only versions of a fact move (a later memory
   * with no earlier version is not demoted), so a question about a past month still finds
   * what was said about it later.
   */
  versionsOnly?: boolean;
  /** The scope recall is allowed to read; linked memories outside it are never shown. */
  scope: Scope | undefined;
}

// A superseded (or not yet valid) version keeps this share of its score: still found, never first.
const OUTDATED = 0.85;
// How far a chain of versions is followed.
const MAX_HOPS = 16;

function outdated(result: Ranked, state: 'superseded' | 'not yet valid', by?: string): Ranked {
  const score = result.score * OUTDATED;
  return {
    ...result,
    score,
    breakdown: {
      ...result.breakdown,
      boosts: [...result.breakdown.boosts, { name: 'superseded', factor: OUTDATED }],
      final: score,
      validity: { state, ...(by ? { supersededBy: by } : {}) },
    },
  };
}

// A version brought in (or lifted) by another's match: just above it, saying why.
function lifted(
  memory: Memory,
  above: Ranked,
  existing: Ranked | undefined,
  state: 'current' | 'earlier',
  cite: (memory: Memory) => string,
): Ranked {
  const score = Math.max(existing?.score ?? 0, Math.min(1, above.score * 1.0001 + 1e-9));
  const base = existing ?? {
    memory,
    score,
    citation: cite(memory),
    breakdown: { lexical: null, vector: null, fused: 0, boosts: [], final: score },
  };
  return {
    ...base,
    memory,
    score,
    breakdown: { ...base.breakdown, final: score, validity: { state, via: above.memory.id } },
  };
}

/**
 * Re-rank `ranked` for the time `settings` names, following version links through `store`,
 * and keep the best `k`. A memory brought in carries its own citation (`cite`).
 */
export async function applyCurrentTruth(
  ranked: readonly Ranked[],
  store: CoreStore,
  settings: TruthSettings,
  k: number,
  cite: (memory: Memory) => string,
): Promise<Ranked[]> {
  const cache = new Map<string, Memory | null>();
  const load = async (ids: readonly string[]) => {
    const missing = ids.filter((id) => !cache.has(id));
    if (missing.length > 0) {
      const found = new Map((await store.getMemories(missing)).map((memory) => [memory.id, memory]));
      for (const id of missing) {
        const memory = found.get(id);
        // A link never leads out of the scope recall may read.
        cache.set(id, memory && (!settings.scope || insideScope(memory.scope, settings.scope)) ? memory : null);
      }
    }
    return ids.map((id) => cache.get(id) ?? null).filter((memory): memory is Memory => memory !== null);
  };
  for (const result of ranked) cache.set(result.memory.id, result.memory);

  const { at, mode } = settings;
  const byId = new Map<string, Ranked>();
  const put = (result: Ranked) => {
    const current = byId.get(result.memory.id);
    if (!current || result.score > current.score) byId.set(result.memory.id, result);
  };
  const handInvalid = (memory: Memory) =>
    memory.validTo !== null && memory.supersededBy === null && memory.validTo <= at;

  // The version true at `at` along a chain, forwards (successors) or backwards (predecessors).
  const forward = async (memory: Memory): Promise<Memory | undefined> => {
    let next = memory;
    for (let hop = 0; hop < MAX_HOPS && next.supersededBy !== null; hop++) {
      const [successor] = await load([next.supersededBy]);
      if (!successor) return undefined;
      if (validAt(successor, at)) return successor;
      next = successor;
    }
    return undefined;
  };
  const backward = async (memory: Memory, wantValid: boolean): Promise<Memory[]> => {
    let layer = [memory];
    for (let hop = 0; hop < MAX_HOPS && layer.length > 0; hop++) {
      const previous = await load(layer.flatMap(supersededIds));
      const hits = wantValid ? previous.filter((item) => validAt(item, at)) : previous;
      if (hits.length > 0) return hits;
      layer = previous;
    }
    return [];
  };

  for (const result of ranked) {
    const { memory } = result;
    if (!settings.includeInvalid && handInvalid(memory)) continue;
    if (mode === 'before') {
      // Earlier versions first: what this fact replaced is the answer.
      const earlier = await backward(memory, false);
      if (earlier.length === 0) {
        put(result);
        continue;
      }
      for (const version of earlier) put(lifted(version, result, byId.get(version.id), 'earlier', cite));
      put(outdated(result, 'superseded'));
      continue;
    }
    if (validAt(memory, at)) {
      put(result);
      continue;
    }
    if (memory.validFrom > at) {
      // Not yet true at `at`: what it replaced was.
      if (!settings.includeInvalid && mode === 'now') continue;
      if (settings.versionsOnly && supersededIds(memory).length === 0) {
        put(result);
        continue;
      }
      const earlier = await backward(memory, true);
      for (const version of earlier) put(lifted(version, result, byId.get(version.id), 'current', cite));
      put(outdated(result, 'not yet valid'));
      continue;
    }
    // Superseded before `at`: the version true then ranks just above it.
    const successor = await forward(memory);
    if (successor) put(lifted(successor, result, byId.get(successor.id), 'current', cite));
    put(outdated(result, 'superseded', memory.supersededBy ?? undefined));
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : 1)).slice(0, k);
}
