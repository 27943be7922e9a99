import { writeFileAtomic } from '../../shared/files/atomic-write.js';
import type { Memory } from '../../spec/memory.js';
import { safeFileName } from '../../utils/safe-file-name.js';
import { writeGeneratedSection } from '../../workspace-format/generated-section.js';
import { renderEntityFacts } from '../entity-page.js';
import { oneLine, pageAt, type ReflectMemories, type ReflectPass } from './reflect-pass.js';
import { summariseEntity } from './summarise-entity.js';

/** Memories by each entity they name (lower case). */
function groupByEntity(memories: readonly Memory[]): Map<string, Memory[]> {
  const byEntity = new Map<string, Memory[]>();
  for (const memory of memories) {
    for (const name of new Set(memory.entities.map((entity) => entity.toLowerCase()))) {
      const list = byEntity.get(name);
      if (list === undefined) byEntity.set(name, [memory]);
      else list.push(memory);
    }
  }
  return byEntity;
}

/**
 * The entity pages step: the generated section of `bank/entities/<Name>.md` for each entity
 * the window's memories name, opinions shown with their confidence as `current` gives it.
 * Between pages a bound of the budget reached stops the run (`report.stopped`), the pages
 * written so far kept. Entity names are data (any client may retain one), so each page's file
 * name is made safe: one segment, inside bank/entities, whatever the name holds.
 */
export async function writeEntityPages(
  pass: ReflectPass,
  memories: ReflectMemories,
  current: (memory: Memory) => Memory,
): Promise<void> {
  const { engine, root, realRoot, nowIso, budget, report } = pass;
  const byEntity = groupByEntity(memories.all);
  const historyByEntity = groupByEntity(memories.replaced);
  const entities = [...new Set(memories.recent.flatMap((memory) => memory.entities))].sort();
  for (const [position, entity] of entities.entries()) {
    const reached = budget.exhausted();
    if (reached !== undefined) {
      report.stopped = { reason: reached, pending: entities.slice(position) };
      break;
    }
    const fileName = `${safeFileName(entity)}.md`;
    const file = `bank/entities/${fileName}`;
    const facts = (byEntity.get(entity.toLowerCase()) ?? [])
      .filter((memory) => memory.source?.file !== file)
      .map(current);
    const { path, page } = pageAt(root, realRoot, ['bank', 'entities', fileName]);
    if ('skipped' in page) {
      report.warnings.push(`${file} ${page.skipped}, so it was left as it is`);
      report.entityPages.push({ entity, file, status: 'skipped' });
      continue;
    }
    const summarised = await summariseEntity(engine, entity, facts, report.warnings, budget);
    if (typeof summarised === 'object') {
      report.stopped = { reason: summarised.stop, pending: entities.slice(position) };
      break;
    }
    const summary = summarised;
    const text = page.text ?? `# ${oneLine(entity)}\n`;
    const history = (historyByEntity.get(entity.toLowerCase()) ?? []).filter((memory) => memory.source?.file !== file);
    const written = writeGeneratedSection(text, 'facts', renderEntityFacts(entity, facts, summary, history, nowIso));
    if (written.status === 'hand-edited')
      report.warnings.push(`${file}: the generated section was edited by hand, so it was left as it is`);
    else if (written.status !== 'unchanged') await writeFileAtomic(path, written.text);
    report.entityPages.push({ entity, file, status: written.status });
  }
}
