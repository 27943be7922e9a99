import type { z } from 'zod';
import type { GenerateRequest, LanguageModel, ModelMessage, TokenUsage } from '../spec/language-model.js';
import { extractJsonText } from './json-locate.js';
import { repairJson, repairJsonDroppingUnfinished } from './json-repair.js';

export { extractJsonText } from './json-locate.js';
export { repairJson } from './json-repair.js';

// Models wrap JSON in prose and code fences, forget commas, write Python literals and get
// cut off at the token limit. Everything here is tolerant on input and strict on output:
// whatever the repair produces still goes through JSON.parse and the caller's schema.
// Locating the JSON is in json-locate.ts, repairing it in json-repair.ts; both are linear in
// the reply's length, and replies longer than a cap are refused before either runs.

// ---------------------------------------------------------------------------------------
// Parsing and validating
// ---------------------------------------------------------------------------------------

/** What {@link parseModelJson} returns. */
export type ParseModelJsonResult<T> = { ok: true; value: T; repaired: boolean } | { ok: false; error: string };

const MAX_ISSUES = 3;
const MAX_MESSAGE = 200;

/**
 * Longest reply {@link parseModelJson} accepts by default, in characters (about 125,000
 * tokens, far above any structured answer memoir asks for). Parsing is linear, but a hostile
 * or runaway reply of many megabytes would still hold the event loop for seconds.
 */
export const MAX_REPLY_CHARS = 500_000;

/** Options of {@link parseModelJson}. */
export interface ParseModelJsonOptions {
  /** Longest reply accepted, in characters; a longer one fails at once. Default {@link MAX_REPLY_CHARS}. */
  maxChars?: number;
}

const tooLong = (length: number, max: number): string =>
  `the reply is ${length} characters long, more than the ${max} accepted`;

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
 * Parse a model's reply as JSON and validate it with `schema`. A reply longer than
 * `options.maxChars` (default {@link MAX_REPLY_CHARS}) fails at once with an error saying so. The JSON is first located
 * with {@link extractJsonText}; when it does not parse as it is, {@link repairJson} is tried
 * (and, for a reply cut off mid-array, a repair that drops the unfinished element).
 * `repaired` says whether a repair was needed. On failure, `error` is a short reason — the
 * JSON error or the first schema issues with their paths — fit to show back to the model.
 * Time is linear in the reply's length. Never throws.
 */
export function parseModelJson<T>(
  raw: string,
  schema: z.ZodType<T>,
  options: ParseModelJsonOptions = {},
): ParseModelJsonResult<T> {
  try {
    const source = typeof raw === 'string' ? raw : String(raw);
    const maxChars = options.maxChars ?? MAX_REPLY_CHARS;
    if (source.length > maxChars) return { ok: false, error: tooLong(source.length, maxChars) };
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
    const trimmedText = repairJsonDroppingUnfinished(text);
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
  /** Longest reply accepted, in characters; a longer one counts as unusable. Default {@link MAX_REPLY_CHARS}. */
  maxReplyChars?: number;
}

/** What {@link generateStructured} resolves to. `usage` sums every attempt; `ms` is wall time. */
export type StructuredResult<T> =
  | { ok: true; value: T; attempts: number; usage: TokenUsage; ms: number }
  | { ok: false; error: string; attempts: number; usage: TokenUsage; ms: number; raw: string | null };

const DEFAULT_CONTRACT = 'follows the output contract given above exactly';

// How much of an over-long reply is quoted back in the retry: enough for the model to see
// what it did, without sending megabytes back.
const ECHO_CHARS = 2000;

function echo(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, ECHO_CHARS)}\n[… ${text.length - ECHO_CHARS} more characters cut]`;
}

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
 * the contract (a reply over `maxReplyChars` is quoted only in part). Never throws: a model
 * call that rejects (a ProviderError, an abort, anything else) ends the attempt with
 * `ok: false` and the error's message.
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
  const maxChars = options.maxReplyChars ?? MAX_REPLY_CHARS;
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
    const parsed = parseModelJson(text, schema, { maxChars });
    if (parsed.ok) return { ok: true, value: parsed.value, attempts, usage, ms: elapsed() };
    error = parsed.error;
    messages = [
      ...messages,
      { role: 'assistant', content: echo(text, maxChars) },
      { role: 'user', content: correction(error, contract, cutOff) },
    ];
  }
  return failure(error);
}
