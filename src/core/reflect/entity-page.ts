/** The generated part of `bank/entities/<Name>.md`: the facts that mention the entity, with citations. */
import { citationOf } from '../shared/format-context.js';
import type { Memory, MemoryKind } from '../spec/memory.js';
import { endedAt, statedRangeOf } from './current-fact.js';

const KIND_TITLES: ReadonlyArray<[MemoryKind, string]> = [
  ['world', 'World'],
  ['experience', 'Experience'],
  ['opinion', 'Opinions'],
  ['observation', 'Observations'],
];

// Stable order: by time, then by citation, so the same facts always give the same file.
function byTime(a: Memory, b: Memory): number {
  const left = citationOf(a);
  const right = citationOf(b);
  return a.occurredAt.localeCompare(b.occurredAt) || (left < right ? -1 : left > right ? 1 : 0);
}

function linkTo(citation: string): string {
  const [file, line] = citation.split('#');
  return `[${citation}](../../${file}${line ? `#${line}` : ''})`;
}

/**
 * The deterministic page body: the current facts grouped by kind, oldest first, each with its
 * day and a link to where it was written; a model's summary, when there is one, comes first;
 * versions a newer fact replaced and stated ranges that ended before `nowIso` (`history`) come
 * last, each with the span it was true.
 */
export function renderEntityFacts(
  entity: string,
  facts: readonly Memory[],
  summary?: string,
  history: readonly Memory[] = [],
  nowIso = new Date().toISOString(),
): string {
  // A name is data: whatever it holds, the heading stays one line.
  const lines = [`## What memoir knows about ${entity.replace(/\s+/g, ' ').trim()}`, ''];
  if (summary !== undefined && summary.trim() !== '') lines.push(summary.trim(), '');
  for (const [kind, title] of KIND_TITLES) {
    const group = facts.filter((fact) => fact.kind === kind).sort(byTime);
    if (group.length === 0) continue;
    lines.push(`### ${title}`, '');
    for (const fact of group) {
      const text = fact.content.replace(/\s+/g, ' ').trim();
      const confidence = typeof fact.metadata.confidence === 'number' ? ` (c=${fact.metadata.confidence})` : '';
      lines.push(`- ${fact.occurredAt.slice(0, 10)}: ${text}${confidence} — ${linkTo(citationOf(fact))}`);
    }
    lines.push('');
  }
  if (history.length > 0) {
    lines.push('### History', '');
    for (const fact of [...history].sort(byTime)) {
      const text = fact.content.replace(/\s+/g, ' ').trim();
      const ended = fact.supersededBy === null ? endedAt(fact, nowIso) : undefined;
      if (ended !== undefined) {
        const from = statedRangeOf(fact)?.start ?? fact.validFrom;
        lines.push(
          `- ${from.slice(0, 10)} – ${ended.slice(0, 10)}: ${text} (ended ${ended.slice(0, 10)}) — ${linkTo(citationOf(fact))}`,
        );
        continue;
      }
      const until = fact.validTo ? fact.validTo.slice(0, 10) : 'now';
      lines.push(`- ${fact.validFrom.slice(0, 10)} – ${until}: ${text} (superseded) — ${linkTo(citationOf(fact))}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
