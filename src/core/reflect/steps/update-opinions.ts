import { resolve } from 'node:path';
import { writeFileAtomic } from '../../shared/files/atomic-write.js';
import { citationOf } from '../../shared/format-context.js';
import type { Memory } from '../../spec/memory.js';
import { readConfined } from '../../utils/confined-path.js';
import { generatedBody, writeGeneratedSection } from '../../workspace-format/generated-section.js';
import { type OpinionState, parseOpinionSection, renderOpinionLine } from '../../workspace-format/opinion-state.js';
import { MAX_WORKSPACE_FILE_BYTES } from '../../workspace-format/workspace-files.js';
import { evidenceFor } from '../opinion-evidence.js';
import { updateConfidence } from '../opinion-rule.js';
import { pageAt, type ReflectMemories, type ReflectPass } from './reflect-pass.js';

/**
 * The opinions step: move each opinion's confidence by the new evidence of the window (each
 * piece of evidence applied once), listed in `report.opinions` and kept in the generated
 * section of `bank/opinions.md` (read and written only when it stays inside the workspace).
 * Answers each opinion's confidence as just updated, for the steps after it.
 */
export async function updateOpinions(
  pass: ReflectPass,
  memories: ReflectMemories,
): Promise<(memory: Memory) => number> {
  const { root, realRoot, nowIso, report } = pass;
  const { all, recent } = memories;
  const opinionsFile = readConfined(realRoot, resolve(root, 'bank', 'opinions.md'), MAX_WORKSPACE_FILE_BYTES);
  const opinionsText = opinionsFile.status === 'ok' ? opinionsFile.text : '# Opinions\n';
  const states = parseOpinionSection(generatedBody(opinionsText, 'opinions') ?? '');
  const today = nowIso.slice(0, 10);
  const opinions = all.filter((memory) => memory.kind === 'opinion').sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const opinion of opinions) {
    const state = states.get(opinion.id);
    const before =
      state?.confidence ?? (typeof opinion.metadata.confidence === 'number' ? opinion.metadata.confidence : 0.5);
    const applied = new Set([...(state?.supporting ?? []), ...(state?.contradicting ?? [])]);
    const evidence = evidenceFor(
      opinion,
      recent.filter((fact) => !applied.has(fact.id)),
    );
    if (evidence.length === 0) continue;
    const update = updateConfidence(before, evidence);
    const supporting = evidence.filter((item) => item.direction === 'support').map((item) => item.memoryId);
    const contradicting = evidence.filter((item) => item.direction === 'contradict').map((item) => item.memoryId);
    const next: OpinionState = {
      id: opinion.id,
      confidence: update.confidence,
      previous: before,
      updated: today,
      statement: opinion.content,
      supporting: [...(state?.supporting ?? []), ...supporting],
      contradicting: [...(state?.contradicting ?? []), ...contradicting],
    };
    states.set(opinion.id, next);
    report.opinions.push({
      id: opinion.id,
      citation: citationOf(opinion),
      statement: opinion.content,
      before,
      after: update.confidence,
      supporting,
      contradicting,
      bigDrop: update.bigDrop,
    });
  }
  if (report.opinions.length > 0) {
    const lines = [...states.values()]
      .sort((a, b) => a.statement.localeCompare(b.statement) || (a.id < b.id ? -1 : 1))
      .map(renderOpinionLine);
    const body = `## Confidence (kept by memoir reflect)\n\n${lines.join('\n')}\n`;
    const { path, page } = pageAt(root, realRoot, ['bank', 'opinions.md']);
    if ('skipped' in page) report.warnings.push(`bank/opinions.md ${page.skipped}, so it was left as it is`);
    else {
      const written = writeGeneratedSection(page.text ?? '# Opinions\n', 'opinions', body);
      if (written.status === 'hand-edited')
        report.warnings.push('bank/opinions.md: the generated section was edited by hand, so it was left as it is');
      else if (written.status !== 'unchanged') await writeFileAtomic(path, written.text);
    }
  }
  // Pages show each opinion's confidence as just updated, so a second reflect rewrites nothing.
  return (memory: Memory) =>
    states.get(memory.id)?.confidence ??
    (typeof memory.metadata.confidence === 'number' ? memory.metadata.confidence : 0);
}
