import type { z } from 'zod';
import type { GenerateRequest, LanguageModel, ModelMessage, TokenUsage } from '../spec/language-model.js';

// Models wrap JSON in prose and code fences, forget commas, write Python literals and get
// cut off at the token limit. Everything here is tolerant on input and strict on output:
// whatever the repair produces still goes through JSON.parse and the caller's schema.

// ---------------------------------------------------------------------------------------
// Locating the JSON in a reply
// ---------------------------------------------------------------------------------------

const WHITESPACE = /\s/;
// Quotes other than `"` only open a string where a JSON value or key can start, so an
// apostrophe in prose ("don't {x}") is not taken for one.
const VALUE_START_BEFORE = new Set(['{', '[', ',', ':']);
// Maps, not object literals: a lookup by arbitrary model text must never reach Object.prototype.
const STRING_CLOSERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['"', ['"']],
  ["'", ["'"]],
  ['\u201c', ['\u201d', '\u201c']],
  ['\u201d', ['\u201d', '\u201c']],
  ['\u2018', ['\u2019', '\u2018']],
  ['\u2019', ['\u2019', '\u2018']],
]);

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
    if (!WHITESPACE.test(ch)) previous = ch;
  }
  return -1;
}

const LITERAL_START = /^(true|false|null|True|False|None)\b/;

// Prose uses brackets too ("[1]", "{see below}"); a bracket counts as the start of JSON only
// when what follows could begin a member or an element.
function plausibleStart(text: string, index: number): boolean {
  let i = index + 1;
  while (i < text.length && WHITESPACE.test(text[i]!)) i++;
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

/** Contents of Markdown code fences. A fence opens at a line start; inside JSON strings newlines are escaped, so fences quoted in string values never match. */
function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  while (from < text.length) {
    const open = text.indexOf(FENCE, from);
    if (open === -1) break;
    const lineStart = text.lastIndexOf('\n', open - 1) + 1;
    if (text.slice(lineStart, open).trim() !== '') {
      from = open + FENCE.length;
      continue;
    }
    // Skip the info string (`json`, `jsonc`…) up to the end of the opening line.
    let bodyStart = open + FENCE.length;
    while (text[bodyStart] === '`') bodyStart++;
    const info = /^[ \t]*[A-Za-z0-9_+-]*[ \t]*\r?\n?/.exec(text.slice(bodyStart));
    bodyStart += info ? info[0].length : 0;
    let close = -1;
    for (let at = text.indexOf(FENCE, bodyStart); at !== -1; at = text.indexOf(FENCE, at + FENCE.length)) {
      const before = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
      const after = /^`*[ \t]*(\r?\n|$)/.test(text.slice(at + FENCE.length));
      if (before.trim() === '' || after) {
        close = at;
        break;
      }
    }
    blocks.push(text.slice(bodyStart, close === -1 ? text.length : close));
    if (close === -1) break;
    from = close + FENCE.length;
  }
  return blocks;
}

/**
 * The JSON part of a model's reply: drops a leading byte-order mark, Markdown code fences
 * and any prose before or after, and returns the outermost JSON object or array (brackets
 * are matched with strings and escapes taken into account). A value cut off by the end of
 * the reply is returned up to the end, for {@link repairJson} to close. When nothing
 * bracketed is found, the trimmed reply is returned.
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

// ---------------------------------------------------------------------------------------
// Repairing damaged JSON
// ---------------------------------------------------------------------------------------

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
      if (WHITESPACE.test(ch) || ch === '`' || ch === '\uFEFF') this.i++;
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
    this.stack.push(
      ch === '{'
        ? { kind: 'object', state: 'key', count: 0, mark: this.out.length }
        : { kind: 'array', state: 'value', count: 0, mark: this.out.length },
    );
  }

  /** Close the innermost frame, dropping a key that never got its value. */
  private pop(): void {
    const frame = this.stack.pop()!;
    if (frame.kind === 'object' && (frame.state === 'colon' || frame.state === 'value')) {
      this.out.length = frame.mark;
    }
    this.out.push(frame.kind === 'object' ? '}' : ']');
    this.endValue();
  }

  private close(kind: Frame['kind']): void {
    this.i++;
    // A mismatched bracket closes everything up to the frame it matches; with no such frame it is noise.
    const index = this.stack.findLastIndex((frame) => frame.kind === kind);
    if (index === -1) return;
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
      if (WHITESPACE.test(ch)) continue;
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
    while (j < text.length && !WHITESPACE.test(text[j]!) && !WORD_DELIMITERS.has(text[j]!)) {
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
        this.stack.length = k + 1;
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

// ---------------------------------------------------------------------------------------
// Parsing and validating
// ---------------------------------------------------------------------------------------

/** What {@link parseModelJson} returns. */
export type ParseModelJsonResult<T> = { ok: true; value: T; repaired: boolean } | { ok: false; error: string };

const MAX_ISSUES = 3;
const MAX_MESSAGE = 200;

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out || '(root)';
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, MAX_ISSUES)
    .map((issue) => `${formatPath(issue.path)}: ${clip(issue.message, MAX_MESSAGE)}`);
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  return `the JSON does not match the expected format: ${shown.join('; ')}${more}`;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

type Validation<T> = { ok: true; value: T } | { ok: false; error: string };

function validate<T>(value: unknown, schema: z.ZodType<T>): Validation<T> {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, error: describeIssues(result.error.issues) };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

/**
 * Parse a model's reply as JSON and validate it with `schema`. The JSON is first located
 * with {@link extractJsonText}; when it does not parse as it is, {@link repairJson} is tried
 * (and, for a reply cut off mid-array, a repair that drops the unfinished element).
 * `repaired` says whether a repair was needed. On failure, `error` is a short reason — the
 * JSON error or the first schema issues with their paths — fit to show back to the model.
 * Never throws.
 */
export function parseModelJson<T>(raw: string, schema: z.ZodType<T>): ParseModelJsonResult<T> {
  try {
    const source = typeof raw === 'string' ? raw : String(raw);
    if (source.trim() === '') return { ok: false, error: 'the reply is empty' };
    const text = extractJsonText(source);
    const strict = tryParse(text);
    if (strict.ok) {
      const checked = validate(strict.value, schema);
      return checked.ok ? { ok: true, value: checked.value, repaired: false } : checked;
    }
    const repairedText = repairJson(text);
    if (repairedText === '') return { ok: false, error: 'the reply contains no JSON object' };
    const repaired = tryParse(repairedText);
    if (!repaired.ok) return { ok: false, error: `the reply is not valid JSON (${clip(strict.error, MAX_MESSAGE)})` };
    const checked = validate(repaired.value, schema);
    if (checked.ok) return { ok: true, value: checked.value, repaired: true };
    // A reply cut off inside its last array element usually fails only because of that element.
    const trimmedText = new Repairer(text, { dropUnfinished: true }).run();
    if (trimmedText !== repairedText) {
      const trimmed = tryParse(trimmedText);
      const retried = trimmed.ok ? validate(trimmed.value, schema) : null;
      if (retried?.ok) return { ok: true, value: retried.value, repaired: true };
    }
    return checked;
  } catch (error) {
    // Schemas may run user refinements that throw; a parse helper must not.
    return { ok: false, error: `the reply could not be checked (${clip(errorText(error), MAX_MESSAGE)})` };
  }
}

// ---------------------------------------------------------------------------------------
// Structured generation
// ---------------------------------------------------------------------------------------

/** Options of {@link generateStructured}. */
export interface GenerateStructuredOptions {
  /** How many times to ask again after a reply that fails to parse or validate. Default 1. */
  retries?: number;
  /** Aborts the calls; defaults to the request's own `signal`. */
  signal?: AbortSignal;
  /**
   * What the JSON object must look like, completing "Reply with only a JSON object that …",
   * e.g. `has a "memories" array`. Restated in the correction message of a retry. Default:
   * "follows the output contract given above exactly".
   */
  contract?: string;
}

/** What {@link generateStructured} resolves to. `usage` sums every attempt; `ms` is wall time. */
export type StructuredResult<T> =
  | { ok: true; value: T; attempts: number; usage: TokenUsage; ms: number }
  | { ok: false; error: string; attempts: number; usage: TokenUsage; ms: number; raw: string | null };

const DEFAULT_CONTRACT = 'follows the output contract given above exactly';

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function correction(error: string, contract: string, cutOff: boolean): string {
  const lines = [
    `Your previous reply could not be used: ${error}.`,
    cutOff ? 'It was cut off at the output length limit; write shorter text so the whole object fits.' : '',
    `Reply with only a JSON object that ${contract.replace(/\.$/, '')}. No prose, no code fences, no comments.`,
  ];
  return lines.filter(Boolean).join('\n');
}

/**
 * Ask `model` for a JSON object and validate it with `schema`. JSON mode is forced on. When
 * a reply does not parse or validate, the model is asked again (`retries` times, default 1)
 * with the conversation extended by its reply and a message quoting the error and restating
 * the contract. Never throws: a model call that rejects (a ProviderError, an abort, anything
 * else) ends the attempt with `ok: false` and the error's message.
 */
export async function generateStructured<T>(
  model: LanguageModel,
  request: GenerateRequest,
  schema: z.ZodType<T>,
  options: GenerateStructuredOptions = {},
): Promise<StructuredResult<T>> {
  const started = performance.now();
  const retries = Number.isFinite(options.retries) ? Math.max(0, Math.floor(options.retries!)) : 1;
  const signal = options.signal ?? request.signal;
  const contract = options.contract?.trim() || DEFAULT_CONTRACT;
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let messages: readonly ModelMessage[] = request.messages;
  let attempts = 0;
  let raw: string | null = null;
  let error = 'no attempt was made';
  const elapsed = (): number => Math.round(performance.now() - started);
  const failure = (reason: string): StructuredResult<T> => ({
    ok: false,
    error: reason,
    attempts,
    usage,
    ms: elapsed(),
    raw,
  });

  for (let attempt = 0; attempt <= retries; attempt++) {
    if (signal?.aborted) return failure(`aborted: ${errorText(signal.reason ?? 'the signal was aborted')}`);
    attempts++;
    let text: string;
    let cutOff: boolean;
    try {
      const result = await model.generate({ ...request, messages, json: true, signal });
      usage.inputTokens += count(result?.usage?.inputTokens);
      usage.outputTokens += count(result?.usage?.outputTokens);
      text = typeof result?.text === 'string' ? result.text : '';
      cutOff = result?.finishReason === 'length';
    } catch (thrown) {
      return failure(errorText(thrown));
    }
    raw = text;
    const parsed = parseModelJson(text, schema);
    if (parsed.ok) return { ok: true, value: parsed.value, attempts, usage, ms: elapsed() };
    error = parsed.error;
    messages = [
      ...messages,
      { role: 'assistant', content: text },
      { role: 'user', content: correction(error, contract, cutOff) },
    ];
  }
  return failure(error);
}
