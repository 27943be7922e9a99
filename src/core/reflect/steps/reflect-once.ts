import type { MemoryEngine } from '../../engine/memory-engine.js';
import type { Memory } from '../../spec/memory.js';
import { realDirectory } from '../../utils/confined-path.js';
import { indexWorkspace } from '../../workspace-format/workspace-index.js';
import type { ReflectBudget } from '../reflect-budget.js';
import type { ReflectReport } from '../reflect-report.js';
import { gatherMemories } from './gather-memories.js';
import { proposeCoreLines } from './propose-core-lines.js';
import type { ReflectPass } from './reflect-pass.js';
import { updateOpinions } from './update-opinions.js';
import { writeBankPages } from './write-bank-pages.js';
import { writeEntityPages } from './write-entity-pages.js';

/** Log the run's warnings and where it stopped, and index the pages and opinion states just written. */
async function finish(engine: MemoryEngine, root: string, report: ReflectReport): Promise<ReflectReport> {
  for (const warning of report.warnings) engine.logger.log('warn', `reflect: ${warning}`);
  if (report.stopped !== undefined) {
    engine.logger.log(
      'warn',
      `reflect: stopped at its ${report.stopped.reason === 'tokens' ? 'token' : 'time'} bound; ${report.stopped.pending.length} entity page(s) left for the next run`,
    );
  }
  // The pages and opinion states just written go into the index too.
  await indexWorkspace(engine, root, { rebuild: false });
  return report;
}

/**
 * One reflect over the workspace at `root`, step by step: gather the memories, move the
 * opinions, write the bank pages and the entity pages, propose lines for memory.md. A run
 * its budget stops between entity pages does not rewrite the proposals (the last ones stay).
 */
export async function reflectOnce(
  engine: MemoryEngine,
  root: string,
  sinceIso: string,
  budget: ReflectBudget,
): Promise<ReflectReport> {
  await indexWorkspace(engine, root, { rebuild: false });
  const nowIso = engine.nowIso();
  const realRoot = realDirectory(root);
  const { retainSections, ...memories } = await gatherMemories(engine, { root, realRoot, sinceIso, nowIso }, budget);
  const report: ReflectReport = {
    since: sinceIso,
    entityPages: [],
    opinions: [],
    bankPages: [],
    retainSections,
    coreProposals: { file: 'proposals/memory.md', lines: [], status: 'unchanged' },
    warnings: [],
    tokensUsed: 0,
  };
  const pass: ReflectPass = { engine, root, realRoot, sinceIso, nowIso, budget, report };
  const confidenceOf = await updateOpinions(pass, memories);
  const current = (memory: Memory): Memory =>
    memory.kind === 'opinion'
      ? { ...memory, metadata: { ...memory.metadata, confidence: confidenceOf(memory) } }
      : memory;
  await writeBankPages(pass, memories.all);
  await writeEntityPages(pass, memories, current);
  report.tokensUsed = budget.tokensUsed;
  if (report.stopped === undefined) await proposeCoreLines(pass, memories.recent, confidenceOf);
  return finish(engine, root, report);
}
