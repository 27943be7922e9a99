/**
 * The bullet memoir writes into a day file for a memory retained into a workspace:
 * `- O(c=0.8) @Peter: Prefers concise replies. <!-- memoir {"id":"mem_…",…} -->`.
 * The visible part is seed 004's typed bullet (kind letter, confidence, `@` mentions, text);
 * the trailing comment keeps what Markdown has no words for (id, category, importance, session,
 * times, metadata…), so a rebuilt index holds the same memory. A person may edit the text,
 * the letter or the mentions: the index follows the file.
 */

import { deriveAbstract } from '../shared/memory-builder.js';
import type { Memory, MemoryKind } from '../spec/memory.js';

// Values a memory read back without them gets anyway (see buildMemory).
const DEFAULTS: Readonly<Record<string, unknown>> = {
  category: 'note',
  overview: null,
  context: null,
  sessionId: null,
  validTo: null,
  invalidationReason: null,
  supersededBy: null,
  importance: 0.5,
  bookmarked: false,
};

const LETTER: Readonly<Record<MemoryKind, string>> = { world: 'W', experience: 'B', opinion: 'O', observation: 'S' };
const KIND: Readonly<Record<string, MemoryKind>> = { W: 'world', B: 'experience', O: 'opinion', S: 'observation' };

// The marker is the line's last comment; its JSON never holds `<` or `>` (escaped below).
const MARKER = /\s*<!-- memoir (\{[^<>]*\}) -->\s*$/;
const HEAD =
  /^([WBOS])(?:\(c=([0-9]*\.?[0-9]+)\))?((?:\s+@(?:\{[^{}\n]+\}|[\p{L}\p{N}](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}])?))*)\s*:(?: |$)/u;
const MENTION = /@(?:\{([^{}\n]+)\}|([\p{L}\p{N}](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}])?))/gu;
const SIMPLE_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}])?$/u;

/** What the marker keeps: the stored memory's fields Markdown does not show. */
export type JournalFields = Partial<
  Omit<Memory, 'content' | 'kind' | 'entities' | 'accessCount' | 'lastAccessedAt'>
> & {
  /** Entities that cannot be written as a mention (e.g. holding braces), in order. */
  entities?: string[];
};

/** A memoir-written bullet, read back. */
export interface JournalBullet {
  kind: MemoryKind;
  content: string;
  entities: string[];
  confidence?: number;
  fields: JournalFields & { id: string };
}

// One line: newlines and backslashes escaped, and no `<!--` that could pass for a marker.
function escapeContent(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/<!--/g, '<\\!--');
}

function unescapeContent(text: string): string {
  return text.replace(/\\([\\nr!])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}

function mention(name: string): string | undefined {
  if (SIMPLE_NAME.test(name)) return `@${name}`;
  if (!/[{}\n]/.test(name)) return `@{${name}}`;
  return undefined;
}

/** The fields of `memory` the marker keeps (the ones the bullet's text does not show). */
export function journalFields(memory: Memory): JournalFields & { id: string } {
  const {
    content: _content,
    kind: _kind,
    entities,
    accessCount: _accessCount,
    lastAccessedAt: _lastAccessedAt,
    metadata,
    source,
    ...rest
  } = memory;
  // What the index adds on reading the file is not part of what was retained.
  const { workspace: _workspace, retained: _retained, heading: _heading, journal: _journal, ...ownMetadata } = metadata;
  // The index cites the file; the source the memory came with otherwise stays as it was.
  const ownSource = source === null ? null : { ...source };
  if (ownSource && typeof metadata.workspace === 'object') {
    delete ownSource.file;
    delete ownSource.line;
  }
  const unwritable = entities.some((name) => mention(name) === undefined);
  // Defaults a reader fills in again are left out, to keep the line short.
  const fields: Record<string, unknown> = { ...rest };
  for (const [key, value] of Object.entries(DEFAULTS)) if (fields[key] === value) delete fields[key];
  if (fields.abstract === deriveAbstract(memory.content)) delete fields.abstract;
  return {
    ...(fields as typeof rest),
    ...(Object.keys(ownMetadata).length > 0 ? { metadata: ownMetadata } : {}),
    ...(ownSource && Object.keys(ownSource).length > 0 ? { source: ownSource } : {}),
    ...(unwritable ? { entities } : {}),
  };
}

/** The bullet line for `memory` (one line, whatever its content). */
export function formatJournalBullet(memory: Memory): string {
  const confidence = memory.metadata.confidence;
  const withConfidence =
    memory.kind === 'opinion' && typeof confidence === 'number' && confidence >= 0 && confidence <= 1
      ? `(c=${confidence})`
      : '';
  const mentions = memory.entities.map(mention).filter((name): name is string => name !== undefined);
  const head = `${LETTER[memory.kind]}${withConfidence}${mentions.length > 0 ? ` ${mentions.join(' ')}` : ''}`;
  const json = JSON.stringify(journalFields(memory)).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `- ${head}: ${escapeContent(memory.content)} <!-- memoir ${json} -->`;
}

/** Whether a list item's text (marker removed) is a memoir-written bullet. */
export function isJournalBullet(text: string): boolean {
  const firstLine = text.split('\n', 1)[0]!;
  return MARKER.test(firstLine);
}

/**
 * Read a memoir-written bullet (the list item's text, its `- ` removed; lines a person added
 * under it continue its content). Undefined when it is not one, or its marker is broken.
 */
export function parseJournalBullet(text: string): JournalBullet | undefined {
  const [firstLine = '', ...more] = text.split('\n');
  const marker = MARKER.exec(firstLine);
  if (!marker) return undefined;
  let fields: JournalFields & { id: string };
  try {
    const parsed = JSON.parse(marker[1]!) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const id = (parsed as { id?: unknown }).id;
    if (typeof id !== 'string' || id === '') return undefined;
    fields = parsed as JournalFields & { id: string };
  } catch {
    return undefined;
  }
  const visible = firstLine.slice(0, marker.index);
  const head = HEAD.exec(visible);
  if (!head) return undefined;
  const kind = KIND[head[1]!]!;
  const confidence = head[2] === undefined ? undefined : Number(head[2]);
  const mentioned = [...head[3]!.matchAll(MENTION)].map((match) => match[1] ?? match[2]!);
  const content = [unescapeContent(visible.slice(head[0].length)), ...more].join('\n');
  if (content.trim() === '') return undefined;
  const entities = Array.isArray(fields.entities) ? fields.entities : mentioned;
  return {
    kind,
    content,
    entities,
    ...(confidence !== undefined && confidence >= 0 && confidence <= 1 ? { confidence } : {}),
    fields,
  };
}
