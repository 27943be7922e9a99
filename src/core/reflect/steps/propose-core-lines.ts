import { resolve } from 'node:path';
import { writeFileAtomic } from '../../shared/files/atomic-write.js';
import { citationOf } from '../../shared/format-context.js';
import type { Memory } from '../../spec/memory.js';
import { analyzeTerms } from '../../text/analyze.js';
import { readConfined } from '../../utils/confined-path.js';
import { writeGeneratedSection } from '../../workspace-format/generated-section.js';
import { MAX_WORKSPACE_FILE_BYTES } from '../../workspace-format/workspace-files.js';
import { durableAt } from '../current-fact.js';
import { oneLine, pageAt, type ReflectPass } from './reflect-pass.js';

// A durable fact or a preference held at least this firmly is proposed for memory.md.
const CORE_CONFIDENCE = 0.9;
// A proposal that shares this share of its words with a line of memory.md is already there.
const ALREADY_CORE = 0.8;

function coveredBy(line: string, core: ReadonlyArray<ReadonlySet<string>>): boolean {
  const terms = new Set(analyzeTerms(line));
  if (terms.size === 0) return true;
  return core.some((known) => [...terms].filter((term) => known.has(term)).length / terms.size >= ALREADY_CORE);
}

/**
 * The core proposals step: the window's lasting world facts and firm opinions that
 * `memory.md` does not hold yet, proposed in the generated section of `proposals/memory.md`
 * for a person or the agent to accept.
 */
export async function proposeCoreLines(
  pass: ReflectPass,
  recent: readonly Memory[],
  confidenceOf: (memory: Memory) => number,
): Promise<void> {
  const { root, realRoot, nowIso, report } = pass;
  const coreFile = readConfined(realRoot, resolve(root, 'memory.md'), MAX_WORKSPACE_FILE_BYTES);
  const core = (coreFile.status === 'ok' ? coreFile.text : '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => new Set(analyzeTerms(line)));
  const durable = recent
    .filter((memory) => memory.metadata.retained === true && memory.source?.file !== 'memory.md')
    // A version known to be replaced, even later, is not a lasting line.
    .filter((memory) => durableAt(memory, nowIso))
    .filter(
      (memory) => memory.kind === 'world' || (memory.kind === 'opinion' && confidenceOf(memory) >= CORE_CONFIDENCE),
    )
    .filter((memory) => !coveredBy(memory.content, core))
    .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || (a.id < b.id ? -1 : 1));
  const lines = durable.map((memory) => {
    const prefix = memory.kind === 'opinion' ? `O(c=${confidenceOf(memory)})` : 'W';
    const mentions = memory.entities.map((entity) => ` @${oneLine(entity)}`).join('');
    // "Peter: Lives in Vienna" under @Peter need not say Peter twice. (A plain prefix test:
    // an entity name is data, never a pattern.)
    const first = memory.entities[0];
    const content =
      first !== undefined && memory.content.startsWith(`${first}:`)
        ? memory.content.slice(first.length + 1).trimStart()
        : memory.content;
    return `- ${prefix}${mentions}: ${oneLine(content)} <!-- from ${citationOf(memory)} -->`;
  });
  report.coreProposals.lines = lines;
  if (lines.length === 0) return;
  const { path, page } = pageAt(root, realRoot, ['proposals', 'memory.md']);
  if ('skipped' in page) {
    report.coreProposals.status = 'skipped';
    report.warnings.push(`proposals/memory.md ${page.skipped}, so it was left as it is`);
    return;
  }
  const text =
    page.text ?? '# Proposed for memory.md\n\nMove a line into memory.md to accept it; delete it here to decline.\n';
  const written = writeGeneratedSection(text, 'proposals', `${lines.join('\n')}\n`);
  report.coreProposals.status = written.status;
  if (written.status === 'hand-edited')
    report.warnings.push('proposals/memory.md: the generated section was edited by hand, so it was left as it is');
  else if (written.status !== 'unchanged') await writeFileAtomic(path, written.text);
}
