import { createHash } from 'node:crypto';
import { boundedId } from './openclaw-scope-id.js';

// A message longer than memoir takes in one conversation message (1,000,000 characters) is
// kept in ordered parts, not dropped: each part within the limit, cut at a paragraph, else a
// line, else a sentence, else a space (a hard cut only in text with none of them), and each
// headed `[message <ref>, part <n> of <total>]` so it cites the message it came from. Only the
// whitespace at a cut is not kept (memoir trims each message): joined with the break they were
// cut at, the parts are the message.

/** The most characters memoir's retain accepts in one conversation message. */
export const RETAIN_MESSAGE_CHARS = 1_000_000;

/** Room kept in each part for its header (a 256-character reference and the part numbers). */
const HEADER_RESERVE = 512;

/** Where to cut, best first: the end of a paragraph, a line, a sentence, a word. */
const BOUNDARIES = [/\n[^\S\n]*\n\s*/g, /\n\s*/g, /[.!?。！？…]["'”’)\]]*\s+/g, /\s+/g];

/** The end of the last match of `pattern` in `text`, or -1. */
function lastMatchEnd(text: string, pattern: RegExp): number {
  let end = -1;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    end = match.index + match[0].length;
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return end;
}

/** Where the part starting at `start` ends: a boundary in its second half, else `max` characters on. */
function cutOf(text: string, start: number, max: number): number {
  const from = start + Math.floor(max / 2);
  const window = text.slice(from, start + max);
  for (const boundary of BOUNDARIES) {
    const end = lastMatchEnd(window, boundary);
    // A boundary whose separator runs to the window's end might continue past it: only take
    // cuts that leave the next part starting on a non-space.
    if (end > 0 && end < window.length) return from + end;
  }
  let cut = start + max;
  // Never split a surrogate pair.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}

/** `text` in ordered pieces of at most `max` characters, cut at the best boundary; concatenated, they are `text`. */
export function splitLongText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    const cut = cutOf(text, start, max);
    pieces.push(text.slice(start, cut));
    start = cut;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** How a part names its message: its id, else its time, else a hash of its text. */
function referenceOf(content: string, id: string | undefined, timestamp: number | undefined): string {
  if (id) return id;
  if (timestamp !== undefined) {
    const date = new Date(timestamp);
    if (!Number.isNaN(date.getTime())) return `of ${date.toISOString()}`;
  }
  return `#${createHash('sha256').update(Buffer.from(content, 'utf16le')).digest('hex').slice(0, 16)}`;
}

/** One part of a message: its text with the citing header, and its own id. */
export interface MessagePart {
  /** `[message <ref>, part <n> of <total>]`, a newline, and the part's text. */
  content: string;
  /** `<message id>#part-<n>-of-<total>`, when the message has an id. */
  id?: string;
}

/**
 * `content` as it can be retained: itself when it fits in {@link RETAIN_MESSAGE_CHARS},
 * else its ordered parts, each citing the message (`id`, else `timestamp`) and its number.
 */
export function messageParts(content: string, id: string | undefined, timestamp: number | undefined): MessagePart[] {
  if (content.length <= RETAIN_MESSAGE_CHARS) return [{ content, ...(id ? { id } : {}) }];
  const reference = referenceOf(content, id, timestamp);
  const bodies = splitLongText(content, RETAIN_MESSAGE_CHARS - HEADER_RESERVE);
  return bodies.map((body, index) => {
    const label = `part ${index + 1} of ${bodies.length}`;
    return {
      content: `[message ${reference}, ${label}]\n${body}`,
      ...(id ? { id: boundedId(`${id}#${label.replaceAll(' ', '-')}`) } : {}),
    };
  });
}
