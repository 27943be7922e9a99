/**
 * Sections of a Markdown file that reflect writes, between marker comments that carry a
 * hash of what was written. A section whose text no longer matches its hash was edited by
 * a person, and is left alone.
 */
import { createHash } from 'node:crypto';

/** What became of a generated section. */
export type SectionStatus = 'created' | 'updated' | 'unchanged' | 'hand-edited';

const hashOf = (body: string) => createHash('sha256').update(body).digest('hex').slice(0, 16);
const begin = (name: string) => new RegExp(`^<!-- memoir:${name} sha256=([0-9a-f]{16}) -->$`, 'm');
const end = (name: string) => `<!-- /memoir:${name} -->`;

/** The names of generated sections whose lines the index skips: they only repeat what is cited. */
export const DERIVED_SECTIONS = ['facts', 'opinions'] as const;

/** The body of section `name` in `text`, when there is one. */
export function generatedBody(text: string, name: string): string | undefined {
  const start = begin(name).exec(text);
  if (!start) return undefined;
  const from = start.index + start[0].length + 1;
  const to = text.indexOf(end(name), from);
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
  const normalized = body.endsWith('\n') ? body : `${body}\n`;
  const block = `<!-- memoir:${name} sha256=${hashOf(normalized)} -->\n${normalized}${end(name)}\n`;
  const start = begin(name).exec(text);
  if (!start) {
    const base = text === '' || text.endsWith('\n\n') ? text : text.endsWith('\n') ? `${text}\n` : `${text}\n\n`;
    return { text: `${base}${block}`, status: 'created' };
  }
  const from = start.index + start[0].length + 1;
  const to = text.indexOf(end(name), from);
  if (to < 0) return { text, status: 'hand-edited' };
  const current = text.slice(from, to);
  if (hashOf(current) !== start[1]) return { text, status: 'hand-edited' };
  if (current === normalized) return { text, status: 'unchanged' };
  const after = text.slice(to + end(name).length).replace(/^\n/, '');
  return { text: `${text.slice(0, start.index)}${block}${after}`, status: 'updated' };
}
