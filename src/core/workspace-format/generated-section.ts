/**
 * Sections of a Markdown file that reflect writes, between marker comments that carry a
 * hash of what was written. A section whose text no longer matches its hash was edited by
 * a person, and is left alone.
 */
import { createHash } from 'node:crypto';

/**
 * What became of a generated section: `hand-edited` means a person changed it since it was
 * written, so it was left alone; `skipped` means its file could not be read (too big, not a
 * regular file), so it was left alone too.
 */
export type SectionStatus = 'created' | 'updated' | 'unchanged' | 'hand-edited' | 'skipped';

const hashOf = (body: string) => createHash('sha256').update(body).digest('hex').slice(0, 16);
const begin = (name: string) => new RegExp(`^<!-- memoir:${name} sha256=([0-9a-f]{16}) -->$`, 'm');
const end = (name: string) => `<!-- /memoir:${name} -->`;
// A marker comment inside data (a fact, a model's summary) would end the section early, so
// the section would never match its hash again: such comments are written as text instead.
const MARKER_IN_DATA = /<!--(?=\s*\/?\s*memoir:)/gi;

/** `body` with every memoir marker comment in it made plain text, so it cannot end or open a section. */
export function neutraliseMarkers(body: string): string {
  return body.replace(MARKER_IN_DATA, '&lt;!--');
}

// Where the section's end marker is: the first one at the start of a line after `from`.
function endOf(text: string, name: string, from: number): number {
  const marker = end(name);
  for (let at = text.indexOf(marker, from); at >= 0; at = text.indexOf(marker, at + 1)) {
    if (at === from || text[at - 1] === '\n') return at;
  }
  return -1;
}

/** The names of generated sections whose lines the index skips: they only repeat what is cited. */
export const DERIVED_SECTIONS = ['facts', 'opinions', 'world', 'experience'] as const;

/** The body of section `name` in `text`, when there is one. */
export function generatedBody(text: string, name: string): string | undefined {
  const start = begin(name).exec(text);
  if (!start) return undefined;
  const from = start.index + start[0].length + 1;
  const to = endOf(text, name, from);
  return to < 0 ? undefined : text.slice(from, to);
}

/**
 * Put `body` into section `name` of `text`: create it at the end, replace it when it is as
 * reflect last wrote it, leave it when a person changed it since.
 */
export function writeGeneratedSection(
  text: string,
  name: string,
  body: string,
): { text: string; status: SectionStatus } {
  const safe = neutraliseMarkers(body);
  const normalized = safe.endsWith('\n') ? safe : `${safe}\n`;
  const block = `<!-- memoir:${name} sha256=${hashOf(normalized)} -->\n${normalized}${end(name)}\n`;
  const start = begin(name).exec(text);
  if (!start) {
    const base = text === '' || text.endsWith('\n\n') ? text : text.endsWith('\n') ? `${text}\n` : `${text}\n\n`;
    return { text: `${base}${block}`, status: 'created' };
  }
  const from = start.index + start[0].length + 1;
  const to = endOf(text, name, from);
  if (to < 0) return { text, status: 'hand-edited' };
  const current = text.slice(from, to);
  if (hashOf(current) !== start[1]) return { text, status: 'hand-edited' };
  if (current === normalized) return { text, status: 'unchanged' };
  const after = text.slice(to + end(name).length).replace(/^\n/, '');
  return { text: `${text.slice(0, start.index)}${block}${after}`, status: 'updated' };
}
