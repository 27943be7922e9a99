/**
 * The generated parts of `bank/world.md` and `bank/experience.md` (seed 004): the world facts
 * and the agent's experiences that hold now, each with its day and a link to where it was
 * written. Only typed bullets (`## Retain`, retained memories) of dated sources go in: a
 * page's own lines, memory.md and the other bank pages are curated already.
 */
import { citationOf } from '../shared/format-context.js';
import type { Memory } from '../spec/memory.js';
import { isUndated } from '../utils/undated.js';

/** One bank page reflect keeps, by the kind of memory it lists. */
export interface BankPage {
  /** Workspace-relative path. */
  file: 'bank/world.md' | 'bank/experience.md';
  /** Path segments under the workspace root. */
  segments: readonly string[];
  /** The generated section's name (its marker comments). */
  section: 'world' | 'experience';
  /** The kind of memory it lists. */
  kind: 'world' | 'experience';
  /** The page a new file starts with. */
  title: string;
  /** The section's heading. */
  heading: string;
}

/** The two pages, in the order a run writes them. */
export const BANK_PAGES: readonly BankPage[] = [
  {
    file: 'bank/world.md',
    segments: ['bank', 'world.md'],
    section: 'world',
    kind: 'world',
    title: '# World\n',
    heading: '## World facts (kept by memoir reflect)',
  },
  {
    file: 'bank/experience.md',
    segments: ['bank', 'experience.md'],
    section: 'experience',
    kind: 'experience',
    title: '# Experience\n',
    heading: '## What the agent did (kept by memoir reflect)',
  },
];

// Stable order: by time, then by citation, so the same facts always give the same file.
function byTime(a: Memory, b: Memory): number {
  const left = citationOf(a);
  const right = citationOf(b);
  return a.occurredAt.localeCompare(b.occurredAt) || (left < right ? -1 : left > right ? 1 : 0);
}

const linkTo = (citation: string) => {
  const [file, line] = citation.split('#');
  return `[${citation}](../${file}${line ? `#${line}` : ''})`;
};

/** The memories `page` lists, out of those that hold now: typed bullets of dated sources of its kind. */
export function bankFacts(page: BankPage, current: readonly Memory[]): Memory[] {
  return current
    .filter((memory) => memory.kind === page.kind && memory.metadata.retained === true && !isUndated(memory))
    .filter((memory) => {
      const file = memory.source?.file;
      return file === undefined || !(file === 'memory.md' || file === 'MEMORY.md' || file.startsWith('bank/'));
    })
    .sort(byTime);
}

/** The section's body: one line per fact, oldest first, with its day, its mentions and its citation. */
export function renderBankPage(page: BankPage, facts: readonly Memory[]): string {
  const lines = [page.heading, ''];
  if (facts.length === 0) lines.push('Nothing yet.');
  for (const fact of facts) {
    // "Peter: Lives in Vienna" under @Peter need not say Peter twice (a plain prefix test: a
    // name is data, never a pattern).
    const first = fact.entities[0];
    const said =
      first !== undefined && fact.content.startsWith(`${first}:`) ? fact.content.slice(first.length + 1) : fact.content;
    const text = said.replace(/\s+/g, ' ').trim();
    const mentions = fact.entities.map((entity) => ` @${entity.replace(/\s+/g, ' ').trim()}`).join('');
    lines.push(`- ${fact.occurredAt.slice(0, 10)}${mentions}: ${text} — ${linkTo(citationOf(fact))}`);
  }
  return `${lines.join('\n')}\n`;
}
