import type { MemoryEngine } from '../../engine/memory-engine.js';
import { validAt } from '../../search/memory-versions.js';
import { indexWorkspace, workspaceMark } from '../../workspace-format/workspace-index.js';
import { currentAt, endedAt } from '../current-fact.js';
import { inferRetainSections, type RetainInference } from '../infer-retain.js';
import type { ReflectBudget } from '../reflect-budget.js';
import { CONFINED, type ReflectMemories } from './reflect-pass.js';

/**
 * The first step, on a freshly indexed workspace: daily logs with prose only get their Retain
 * bullets (with a model; indexed at once, so this run reflects on them too), then the
 * workspace's memories are sorted into what holds now, what was replaced, and what is recent.
 */
export async function gatherMemories(
  engine: MemoryEngine,
  window: { root: string; realRoot: string; sinceIso: string; nowIso: string },
  budget: ReflectBudget,
): Promise<ReflectMemories & { retainSections: RetainInference }> {
  const { root, realRoot, sinceIso, nowIso } = window;
  const retainSections = await inferRetainSections(engine, root, realRoot, { sinceIso, nowIso }, budget, CONFINED);
  if (retainSections.added.length > 0) await indexWorkspace(engine, root, { rebuild: false });
  const indexed = (await engine.store.listMemories({ filter: { scope: engine.scope } })).filter(
    (memory) => workspaceMark(memory) !== undefined,
  );
  // What holds now: valid in world time, and no stated range of it over (current-fact.ts).
  const all = indexed.filter((memory) => currentAt(memory, nowIso));
  // Versions a newer fact replaced, and stays or spans that ended: an entity page lists
  // them below the current facts.
  const replaced = indexed.filter((memory) =>
    validAt(memory, nowIso) ? endedAt(memory, nowIso) !== undefined : memory.supersededBy !== null,
  );
  const recent = all.filter((memory) => memory.occurredAt >= sinceIso && memory.occurredAt <= nowIso);
  return { retainSections, all, replaced, recent };
}
