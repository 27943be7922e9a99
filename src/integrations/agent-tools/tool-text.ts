/** How memories and records read in a tool result: one line each for a model, a slim object for hosts. */
import { opinionNote } from '../../core/utils/opinion-standing.js';
import type { Memory } from '../../index.js';

/** Longest preview of a memory's content in lists. */
const PREVIEW_CHARS = 200;

/** Text cut to `limit` characters on a word boundary, with an ellipsis when cut. */
export function preview(text: string, limit = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return `${(space > limit * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The date and minute of an ISO time, `2026-11-23 19:48`. */
export function shortTime(iso: string): string {
  return iso.replace('T', ' ').slice(0, 16);
}

/**
 * One line per memory: id, category (an opinion: its confidence and evidence), when, preview;
 * flags a model should know about.
 */
export function memoryLine(memory: Memory, score?: number): string {
  const flags = [
    memory.bookmarked || memory.metadata.bookmarked === true ? 'bookmarked' : '',
    memory.validTo === null
      ? ''
      : memory.supersededBy !== null
        ? `superseded by ${memory.supersededBy}, true until ${shortTime(memory.validTo)}`
        : `invalid since ${shortTime(memory.validTo)}`,
  ].filter(Boolean);
  const scored = score === undefined ? '' : ` score ${score.toFixed(2)}`;
  const extra = flags.length > 0 ? ` [${flags.join(', ')}]` : '';
  const opinion = opinionNote(memory);
  const what = opinion === undefined ? memory.category : `${memory.category}; opinion, ${opinion}`;
  // A workspace page's line with no date of its own (metadata.undated) says so.
  const when = memory.metadata.undated === true ? 'undated' : shortTime(memory.occurredAt);
  return `- ${memory.id} (${what}, ${when}${scored})${extra}: ${preview(memory.content)}`;
}

/** A memory as structured content: the fields a host or a model uses, not the store's bookkeeping. */
export function memoryView(memory: Memory, contentLimit?: number): Record<string, unknown> {
  return {
    id: memory.id,
    kind: memory.kind,
    category: memory.category,
    abstract: memory.abstract,
    content: contentLimit === undefined ? memory.content : preview(memory.content, contentLimit),
    entities: memory.entities,
    sessionId: memory.sessionId,
    occurredAt: memory.occurredAt,
    createdAt: memory.createdAt,
    importance: memory.importance,
    bookmarked: memory.bookmarked,
    validFrom: memory.validFrom,
    validTo: memory.validTo,
    supersededBy: memory.supersededBy,
    invalidationReason: memory.invalidationReason,
    metadata: memory.metadata,
  };
}

/** Lines joined under a heading, or the `empty` sentence when there are none. */
export function section(heading: string, lines: readonly string[], empty: string): string {
  return lines.length === 0 ? empty : `${heading}\n${lines.join('\n')}`;
}

/** "1 memory", "3 memories". */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
