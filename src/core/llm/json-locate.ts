import { isWhitespace, STRING_CLOSERS } from './json-chars.js';

// Finding the JSON in a model's reply. Replies are untrusted and may be megabytes long, so
// every scan here moves forward: each character is looked at a bounded number of times, and
// nothing slices or rescans the rest of the text per bracket or per fence.

// Quotes other than `"` only open a string where a JSON value or key can start, so an
// apostrophe in prose ("don't {x}") is not taken for one.
const VALUE_START_BEFORE = new Set(['{', '[', ',', ':']);

/** Index of the quote closing the string opened at `start`, or `text.length` when it never closes. */
function skipQuoted(text: string, start: number): number {
  const closers = STRING_CLOSERS.get(text[start]!) ?? ['"'];
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') i++;
    else if (closers.includes(ch)) return i;
  }
  return text.length;
}

/** End (exclusive) of the bracketed value opened at `start`, or -1 when the text ends first. */
function scanBalanced(text: string, start: number): number {
  let depth = 0;
  let previous = '';
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || (STRING_CLOSERS.has(ch) && VALUE_START_BEFORE.has(previous))) {
      i = skipQuoted(text, i);
      if (i >= text.length) return -1;
      previous = '"';
      continue;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    if (!isWhitespace(ch)) previous = ch;
  }
  return -1;
}

const LITERAL_START = /^(true|false|null|True|False|None)\b/;

// Prose uses brackets too ("[1]", "{see below}"); a bracket counts as the start of JSON only
// when what follows could begin a member or an element.
function plausibleStart(text: string, index: number): boolean {
  let i = index + 1;
  while (i < text.length && isWhitespace(text[i]!)) i++;
  if (i >= text.length) return true;
  const next = text[i]!;
  if (next === '"' || next === "'" || next === '\u201c' || next === '\u2018') return true;
  if (text[index] === '{') return next === '}' || /[A-Za-z_$]/.test(next);
  return /[[{\]\-0-9.]/.test(next) || LITERAL_START.test(text.slice(i, i + 6));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

interface Located {
  text: string;
  parses: boolean;
}

const longest = (items: readonly string[]): string | undefined =>
  items.reduce<string | undefined>(
    (best, item) => (best === undefined || item.length > best.length ? item : best),
    undefined,
  );

/** The most likely JSON value in `text`: the longest that parses, else the longest bracketed or truncated one. */
function locateJson(text: string): Located | null {
  const balanced: string[] = [];
  let tail: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if ((ch !== '{' && ch !== '[') || !plausibleStart(text, i)) continue;
    const end = scanBalanced(text, i);
    if (end === -1) {
      // Unbalanced to the end: a truncated value; anything after its start is inside it.
      tail = text.slice(i);
      break;
    }
    balanced.push(text.slice(i, end));
    i = end - 1;
  }
  const parsing = balanced.filter(isJson);
  const pick = longest(tail === undefined ? parsing : [...parsing, tail]) ?? longest(balanced);
  return pick === undefined ? null : { text: pick, parses: pick !== tail && parsing.includes(pick) };
}

const FENCE = '```';
// Sticky: matched where a fence's backticks end, never against a slice of the rest of the text.
const INFO_STRING = /[ \t]*[A-Za-z0-9_+-]*[ \t]*\r?\n?/y;
const LINE_END = /[ \t]*(\r?\n|$)/y;

/** End of the run of backticks that starts at `at`. */
function backtickRunEnd(text: string, at: number): number {
  let end = at;
  while (text[end] === '`') end++;
  return end;
}

/**
 * Whether only whitespace stands between the start of the line and `at`. The backward scan
 * stops at the first other character; fences are visited left to right, so the runs it
 * crosses are disjoint and the total cost stays linear.
 */
function atLineStart(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && text[i] !== '\n' && isWhitespace(text[i]!)) i--;
  return i < 0 || text[i] === '\n';
}

function matchLength(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match ? match[0].length : -1;
}

/**
 * Contents of Markdown code fences. A fence opens at a line start; it closes at a fence that
 * starts a line or ends one (`{"a": 1}```). Inside JSON strings newlines are escaped, so
 * fences quoted in string values never match. One left-to-right pass.
 */
function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  while (from < text.length) {
    const open = text.indexOf(FENCE, from);
    if (open === -1) break;
    let bodyStart = backtickRunEnd(text, open);
    if (!atLineStart(text, open)) {
      from = bodyStart;
      continue;
    }
    // Skip the info string (`json`, `jsonc`…) up to the end of the opening line.
    bodyStart += Math.max(0, matchLength(INFO_STRING, text, bodyStart));
    let close = -1;
    let closeEnd = text.length;
    for (let at = text.indexOf(FENCE, bodyStart); at !== -1; at = text.indexOf(FENCE, closeEnd)) {
      closeEnd = backtickRunEnd(text, at);
      if (atLineStart(text, at) || matchLength(LINE_END, text, closeEnd) !== -1) {
        close = at;
        break;
      }
    }
    blocks.push(text.slice(bodyStart, close === -1 ? text.length : close));
    if (close === -1) break;
    from = closeEnd;
  }
  return blocks;
}

/**
 * The JSON part of a model's reply: drops a leading byte-order mark, Markdown code fences
 * and any prose before or after, and returns the outermost JSON object or array (brackets
 * are matched with strings and escapes taken into account). A value cut off by the end of
 * the reply is returned up to the end, for `repairJson` to close. When nothing
 * bracketed is found, the trimmed reply is returned. Time is linear in the reply's length.
 */
export function extractJsonText(raw: string): string {
  const text = String(raw).replace(/^\uFEFF+/, '');
  const whole = locateJson(text);
  if (whole?.parses) return whole.text;
  let firstFenced: string | undefined;
  for (const block of fencedBlocks(text)) {
    const found = locateJson(block);
    if (!found) continue;
    if (found.parses) return found.text;
    firstFenced ??= found.text;
  }
  return firstFenced ?? whole?.text ?? text.trim();
}
