/** One typed bullet of a `## Retain` section: `- O(c=0.95) @Peter: Prefers concise replies.` */
import type { MemoryKind } from '../spec/memory.js';

const KIND_OF_PREFIX: Readonly<Record<string, MemoryKind>> = {
  W: 'world',
  B: 'experience',
  O: 'opinion',
  S: 'observation',
};

// A prefix is one or two letters, optionally with parameters, followed by a mention or a colon;
// `W Text` (a known letter and a space) counts too, so authors may leave out the colon.
const TYPED = /^([A-Za-z]{1,2})(?:\(([^)]*)\))?\s*(?=@|:)|^([A-Za-z]{1,2})\(([^)]*)\)\s*|^([WBOS])\s+(?=\S)/;
const MENTION = /@([\p{L}\p{N}](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}])?)/gu;

/** A typed bullet, parsed. */
export interface RetainBullet {
  /** The kind its prefix names. */
  kind: MemoryKind;
  /** The `@Name` mentions, in order, without repeats. */
  entities: string[];
  /** `O(c=…)`, when given. */
  confidence?: number;
  /** The bullet's text without its prefix and without the `@` of mentions. */
  content: string;
}

/** What a bullet is: typed, not typed at all, or typed wrongly (with the reason). */
export type BulletParse = { bullet: RetainBullet } | { untyped: true } | { malformed: string };

/** The `@Name` mentions of a text, in order, without repeats. */
export function mentionsOf(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) seen.add(match[1]!);
  return [...seen];
}

function confidenceOf(parameters: string): number | string {
  const match = /^\s*c\s*=\s*([0-9]*\.?[0-9]+)\s*$/.exec(parameters);
  if (!match) return `expected O(c=0.0..1.0), got (${parameters})`;
  const value = Number(match[1]);
  if (!(value >= 0 && value <= 1)) return `expected a confidence between 0 and 1, got c=${match[1]}`;
  return value;
}

/** Parse the text of a list item (its marker removed) as a typed Retain bullet. */
export function parseRetainBullet(text: string): BulletParse {
  const typed = TYPED.exec(text);
  if (!typed) return { untyped: true };
  const prefix = typed[1] ?? typed[3] ?? typed[5]!;
  const parameters = typed[2] ?? typed[4];
  const kind = KIND_OF_PREFIX[prefix];
  if (kind === undefined) return { malformed: `unknown type prefix "${prefix}" (expected W, B, O or S)` };
  let confidence: number | undefined;
  if (parameters !== undefined) {
    if (prefix !== 'O') return { malformed: `only an opinion (O) takes parameters, got ${prefix}(${parameters})` };
    const parsed = confidenceOf(parameters);
    if (typeof parsed === 'string') return { malformed: parsed };
    confidence = parsed;
  }
  const rest = text.slice(typed[0].length).trim();
  const content = rest.replace(MENTION, '$1').replace(/^:\s*/, '').trim();
  if (content === '' || content === ':') return { malformed: 'expected text after the type prefix' };
  return {
    bullet: { kind, entities: mentionsOf(rest), ...(confidence === undefined ? {} : { confidence }), content },
  };
}
