import { isWhitespace, STRING_CLOSERS } from './json-chars.js';

// Repairing damaged JSON written by a model. One forward pass over the text with a stack of
// open containers; like the locator it must stay linear on hostile input, so nothing here
// rescans the text or the stack per character.
//
// Why not the jsonrepair package (checked with 3.15.0 against tests/core/model-json.test.ts):
// it fails 13 of the 34 repair cases — some by corrupting data ("C:\Users\x" loses its
// backslashes, "don't" becomes don"t, NaN becomes the string "NaN", a missing value or a
// dangling key becomes null) — and is quadratic on three hostile shapes (unquoted words on
// lines: 12 s for 100 KB; many straight or smart quotes), where this pass stays linear.

interface Frame {
  kind: 'object' | 'array';
  /** object: key → colon → value → after; array: value → after. */
  state: 'key' | 'colon' | 'value' | 'after';
  count: number;
  /** Output length before the current member (comma included), to drop it when it is left dangling. */
  mark: number;
}

interface RepairOptions {
  /** At a truncated end, drop the unfinished element of the innermost array instead of closing it. */
  dropUnfinished: boolean;
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;
const LOOSE_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const LITERALS: ReadonlyMap<string, string> = new Map([
  ['true', 'true'],
  ['True', 'true'],
  ['TRUE', 'true'],
  ['false', 'false'],
  ['False', 'false'],
  ['FALSE', 'false'],
  ['null', 'null'],
  ['Null', 'null'],
  ['NULL', 'null'],
  ['None', 'null'],
  ['undefined', 'null'],
  ['NaN', 'null'],
  ['Infinity', 'null'],
  ['-Infinity', 'null'],
]);
const WORD_DELIMITERS = new Set([',', ':', '{', '}', '[', ']', '"', "'", '\u201c', '\u201d', '\u2018', '\u2019']);
const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ["'", "'"],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

/** A number or literal token as JSON text, or undefined when it is neither. */
function scalarJson(token: string, truncated: boolean): string | undefined {
  const literal = LITERALS.get(token);
  if (literal) return literal;
  if (JSON_NUMBER.test(token)) return token;
  if (LOOSE_NUMBER.test(token)) {
    const value = Number(token);
    return Number.isFinite(value) ? String(value) : 'null';
  }
  if (!truncated) return undefined;
  // Cut off mid-token: `tr` was `true`, `1.5e` was a number.
  for (const word of ['true', 'false', 'null', 'True', 'False', 'None']) {
    if (word.startsWith(token)) return LITERALS.get(word);
  }
  const prefix = token.replace(/[eE.+-]+$/, '');
  if (!prefix || !LOOSE_NUMBER.test(prefix)) return undefined;
  const value = Number(prefix);
  return Number.isFinite(value) ? String(value) : 'null';
}

class Repairer {
  private readonly out: string[] = [];
  private readonly stack: Frame[] = [];
  /** Open frames of each kind, so a closer with no frame to match is dropped without a search. */
  private readonly openCount: Record<Frame['kind'], number> = { object: 0, array: 0 };
  private rootDone = false;
  private i = 0;
  /** Stack depth whose element the last token was, when that token was cut off by the end of the text. */
  private truncatedIn = -1;

  constructor(
    private readonly text: string,
    private readonly options: RepairOptions,
  ) {}

  run(): string {
    const { text } = this;
    while (this.i < text.length && !this.rootDone) {
      const ch = text[this.i]!;
      if (isWhitespace(ch) || ch === '`' || ch === '\uFEFF') this.i++;
      else if (ch === '/' && (text[this.i + 1] === '/' || text[this.i + 1] === '*')) this.skipComment();
      else if (ch === '#') this.skipLine();
      else if (ch === '{' || ch === '[') this.open(ch);
      else if (ch === '}' || ch === ']') this.close(ch === '}' ? 'object' : 'array');
      else if (ch === ',') this.comma();
      else if (ch === ':') this.colon();
      else if (STRING_CLOSERS.has(ch)) this.string();
      else this.word();
    }
    this.finish();
    return this.out.join('');
  }

  private get top(): Frame | undefined {
    return this.stack.at(-1);
  }

  private skipLine(): void {
    const end = this.text.indexOf('\n', this.i);
    this.i = end === -1 ? this.text.length : end + 1;
  }

  private skipComment(): void {
    if (this.text[this.i + 1] === '/') {
      this.skipLine();
      return;
    }
    const end = this.text.indexOf('*/', this.i + 2);
    this.i = end === -1 ? this.text.length : end + 2;
  }

  /** Where the next token lands: a key, a value, or nowhere (stray token at the top level after the root). */
  private slot(): 'key' | 'value' | 'none' {
    const top = this.top;
    if (!top) return this.rootDone ? 'none' : 'value';
    if (top.kind === 'array') return 'value';
    return top.state === 'key' || top.state === 'after' ? 'key' : 'value';
  }

  private emitKey(key: string): void {
    const top = this.top!;
    top.mark = this.out.length;
    this.out.push(`${top.count > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    top.state = 'colon';
  }

  /** Write the separator a value needs; array elements remember where they start. */
  private beginValue(): void {
    const top = this.top;
    if (top?.kind === 'array') {
      top.mark = this.out.length;
      if (top.count > 0) this.out.push(',');
    } else if (top && (top.state === 'key' || top.state === 'after')) {
      // A value where a key belongs (`{{…}}`, `{1: …}` handled by the caller): give it an empty key.
      this.emitKey('');
    }
  }

  private endValue(): void {
    const top = this.top;
    if (!top) {
      this.rootDone = true;
      return;
    }
    top.count++;
    top.state = 'after';
  }

  private value(json: string): void {
    this.beginValue();
    this.out.push(json);
    this.endValue();
  }

  private open(ch: '{' | '['): void {
    this.i++;
    if (this.slot() === 'none') return;
    this.beginValue();
    this.out.push(ch);
    this.openCount[ch === '{' ? 'object' : 'array']++;
    this.stack.push(
      ch === '{'
        ? { kind: 'object', state: 'key', count: 0, mark: this.out.length }
        : { kind: 'array', state: 'value', count: 0, mark: this.out.length },
    );
  }

  /** Close the innermost frame, dropping a key that never got its value. */
  private pop(): void {
    const frame = this.stack.pop()!;
    this.openCount[frame.kind]--;
    if (frame.kind === 'object' && (frame.state === 'colon' || frame.state === 'value')) {
      this.out.length = frame.mark;
    }
    this.out.push(frame.kind === 'object' ? '}' : ']');
    this.endValue();
  }

  private close(kind: Frame['kind']): void {
    this.i++;
    // A mismatched bracket closes everything up to the frame it matches; with no such frame it
    // is noise. The search then costs no more than the pops that follow it.
    if (this.openCount[kind] === 0) return;
    const index = this.stack.findLastIndex((frame) => frame.kind === kind);
    while (this.stack.length > index) this.pop();
  }

  private comma(): void {
    this.i++;
    const top = this.top;
    if (!top) return;
    if (top.kind === 'array') top.state = 'value';
    else if (top.state === 'after') top.state = 'key';
    else if (top.state === 'colon' || top.state === 'value') {
      // `"key": ,` — the key has no value; drop it.
      this.out.length = top.mark;
      top.state = 'key';
    }
  }

  private colon(): void {
    this.i++;
    const top = this.top;
    if (top?.kind === 'object' && top.state === 'colon') top.state = 'value';
  }

  /** A closing quote counts only when what follows could follow a string; otherwise it is a quote inside the text. */
  private closesString(at: number): boolean {
    const { text } = this;
    for (let j = at + 1; j < text.length; j++) {
      const ch = text[j]!;
      if (ch === '\n' || ch === '\r') return true;
      if (isWhitespace(ch)) continue;
      if (',:}]{[`"#'.includes(ch)) return true;
      return ch === '/' && (text[j + 1] === '/' || text[j + 1] === '*');
    }
    return true;
  }

  private string(): void {
    const { text } = this;
    const closers = STRING_CLOSERS.get(text[this.i]!)!;
    let content = '';
    let closed = false;
    let j = this.i + 1;
    while (j < text.length) {
      const ch = text[j]!;
      if (ch === '\\') {
        const next = text[j + 1];
        if (next === undefined) break;
        if (next === 'u') {
          const hex = text.slice(j + 2, j + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex)) {
            content += String.fromCharCode(Number.parseInt(hex, 16));
            j += 6;
          } else if (j + 6 > text.length) {
            break; // `\u12` cut off by the end of the text
          } else {
            content += '\\u';
            j += 2;
          }
          continue;
        }
        // Unknown escapes (`C:\Users`) keep their backslash as text.
        content += SIMPLE_ESCAPES.get(next) ?? `\\${next}`;
        j += 2;
        continue;
      }
      if (closers.includes(ch) && this.closesString(j)) {
        closed = true;
        j++;
        break;
      }
      content += ch;
      j++;
    }
    this.i = closed ? j : text.length;
    const slot = this.slot();
    if (slot === 'none') return;
    if (slot === 'key') {
      this.emitKey(content);
      return;
    }
    if (!closed) this.truncatedIn = this.stack.length - 1;
    this.value(JSON.stringify(content));
  }

  private word(): void {
    const { text } = this;
    const start = this.i;
    let j = start;
    while (j < text.length && !isWhitespace(text[j]!) && !WORD_DELIMITERS.has(text[j]!)) {
      if (text[j] === '/' && (text[j + 1] === '/' || text[j + 1] === '*')) break;
      j++;
    }
    if (j === start) j++; // a lone character that fits nowhere; consume it
    const token = text.slice(start, j);
    const truncated = j >= text.length;
    this.i = j;
    const slot = this.slot();
    if (slot === 'none') return;
    const scalar = scalarJson(token, truncated);
    if (slot === 'key') {
      this.emitKey(token);
      return;
    }
    if (scalar !== undefined) {
      if (truncated) this.truncatedIn = this.stack.length - 1;
      this.value(scalar);
      return;
    }
    // Prose before the root is skipped; inside a container an unquoted value runs to the end of the member.
    if (!this.top) return;
    let end = j;
    while (end < text.length && !',}]\n\r'.includes(text[end]!)) end++;
    const phrase = text.slice(start, end).trim();
    if (end >= text.length) this.truncatedIn = this.stack.length - 1;
    this.i = end;
    if (phrase === '-') return; // a lone minus cut off before its digits
    this.value(JSON.stringify(phrase));
  }

  private finish(): void {
    if (this.options.dropUnfinished && this.stack.length > 0) {
      // Everything still open was cut off. Drop the unfinished element of the innermost array
      // that has one: the element is a still-open container above it, or a cut-off scalar in it.
      for (let k = this.stack.length - 1; k >= 0; k--) {
        const frame = this.stack[k]!;
        const unfinished = k < this.stack.length - 1 || this.truncatedIn === k;
        if (frame.kind !== 'array' || !unfinished) continue;
        this.out.length = frame.mark;
        for (const dropped of this.stack.splice(k + 1)) this.openCount[dropped.kind]--;
        frame.state = 'after';
        break;
      }
    }
    while (this.stack.length > 0) this.pop();
  }
}

/**
 * Repair the usual damage in JSON written by a model, returning JSON text (or `''` when the
 * text holds no JSON value at all): trailing and missing commas, single-quoted and smart-quoted
 * strings and keys, unquoted keys and values, Python literals (`True`, `False`, `None`),
 * `NaN`/`Infinity`, comments, invalid escapes, raw control characters in strings, and
 * truncation — open strings, arrays and objects are closed and a key left without a value is
 * dropped. Text before the first value and after the root value is ignored. Never throws.
 */
export function repairJson(text: string): string {
  return new Repairer(String(text), { dropUnfinished: false }).run();
}

/**
 * Like {@link repairJson}, but a value cut off inside an array loses its unfinished last
 * element instead of having it closed: a reply cut off mid-element usually fails its schema
 * only because of that element.
 */
export function repairJsonDroppingUnfinished(text: string): string {
  return new Repairer(String(text), { dropUnfinished: true }).run();
}
