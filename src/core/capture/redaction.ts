/**
 * Secret and PII redaction for captured tool events: API keys and tokens (OpenAI, Anthropic,
 * GitHub, AWS, Slack, Google, Stripe, npm, JWTs), bearer tokens, private keys, passwords
 * (also inside `scheme://user:password@host`), e-mail addresses, IBANs, card numbers, US
 * social security numbers and phone numbers become `[REDACTED:<rule name>]`. The rules are
 * data, in `redaction-rules.ts`.
 *
 * @module
 */
import { builtInRedactionRules, type RedactionRule } from './redaction-rules.js';

export { builtInRedactionRules, type RedactionReplacer, type RedactionRule } from './redaction-rules.js';

/** Options of {@link redactValue}. */
export interface RedactValueOptions {
  /**
   * Object keys whose values are replaced whole (as `[REDACTED:secret-field]`), whatever
   * they hold. Default: keys matching `pass(word)?|secret|token|api[_-]?key|authorization|cookie`
   * (case-insensitive). `false` turns key-based redaction off.
   */
  sensitiveKeys?: RegExp | false;
}

/** Object keys whose values are always redacted by {@link redactValue}. */
export const SENSITIVE_KEY_PATTERN = /pass(word)?|secret|token|api[_-]?key|authorization|cookie/i;

const MAX_DEPTH = 32;

const tag = (name: string) => `[REDACTED:${name}]`;

const compiled = new WeakMap<RedactionRule, RegExp>();

function regexOf(rule: RedactionRule): RegExp {
  let regex = compiled.get(rule);
  if (!regex) {
    const { pattern } = rule;
    regex =
      typeof pattern === 'string'
        ? new RegExp(pattern, 'g')
        : pattern.global
          ? pattern
          : new RegExp(pattern.source, `${pattern.flags}g`);
    compiled.set(rule, regex);
  }
  regex.lastIndex = 0;
  return regex;
}

/**
 * Redact secrets and personal data in a text, applying `rules` in order.
 *
 * @param text - The text to clean.
 * @param rules - Rules to apply. Default {@link builtInRedactionRules}.
 * @returns The text with every match replaced, e.g. `[REDACTED:email]`.
 * @group Capture
 */
export function redactText(text: string, rules: readonly RedactionRule[] = builtInRedactionRules): string {
  let out = text;
  let lower: string | undefined;
  for (const rule of rules) {
    if (rule.keywords && rule.keywords.length > 0) {
      lower ??= out.toLowerCase();
      const folded = lower;
      if (!rule.keywords.some((keyword) => folded.includes(keyword.toLowerCase()))) continue;
    }
    const before = out;
    const replacement = rule.replacement ?? tag(rule.name);
    const regex = regexOf(rule);
    out =
      typeof replacement === 'string'
        ? out.replace(regex, replacement)
        : out.replace(regex, (match: string, ...rest: unknown[]) => {
            const groups = rest.filter((item): item is string => typeof item === 'string' || item === undefined);
            return replacement(match, ...groups.map((group) => group ?? ''));
          });
    if (out !== before) lower = undefined;
  }
  return out;
}

function isPlainish(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

/**
 * Redact a nested value: strings (and integers, which may be card numbers) through
 * `rules`, and the whole value of any object key matching `sensitiveKeys`. Returns a
 * JSON-safe copy — Dates become ISO strings, bigints strings, errors `{ name, message }`,
 * functions and symbols are dropped, cycles become `"[Circular]"` — and never changes its input.
 *
 * @param value - Any value, typically tool parameters or a tool result.
 * @param rules - Rules to apply to strings. Default {@link builtInRedactionRules}.
 * @param options - Key-based redaction settings.
 * @group Capture
 */
export function redactValue(
  value: unknown,
  rules: readonly RedactionRule[] = builtInRedactionRules,
  options: RedactValueOptions = {},
): unknown {
  const keys: RegExp | undefined =
    options.sensitiveKeys === undefined ? SENSITIVE_KEY_PATTERN : options.sensitiveKeys || undefined;
  const seen = new WeakSet<object>();

  const visit = (current: unknown, depth: number): unknown => {
    if (typeof current === 'string') return redactText(current, rules);
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return null;
      if (!Number.isInteger(current)) return current;
      const text = String(current);
      const cleaned = redactText(text, rules);
      return cleaned === text ? current : cleaned;
    }
    if (typeof current === 'boolean' || current === null) return current;
    if (typeof current === 'bigint') return redactText(current.toString(), rules);
    if (typeof current !== 'object') return undefined;
    if (current instanceof Date) return Number.isFinite(current.getTime()) ? current.toISOString() : null;
    if (seen.has(current)) return '[Circular]';
    if (depth >= MAX_DEPTH) return '[Truncated]';
    seen.add(current);
    try {
      if (Array.isArray(current)) return current.map((item) => visit(item, depth + 1) ?? null);
      if (current instanceof Error) {
        return { name: current.name, message: redactText(current.message, rules) };
      }
      if (current instanceof Map) return visit(Object.fromEntries(current), depth);
      if (current instanceof Set) return visit([...current], depth);
      if (!isPlainish(current) && typeof (current as { toJSON?: unknown }).toJSON === 'function') {
        return visit((current as { toJSON(): unknown }).toJSON(), depth + 1);
      }
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(current)) {
        if (keys) keys.lastIndex = 0;
        if (keys?.test(key) && item !== undefined && item !== null) {
          out[key] = tag('secret-field');
          continue;
        }
        const cleaned = visit(item, depth + 1);
        if (cleaned !== undefined) out[key] = cleaned;
      }
      return out;
    } finally {
      seen.delete(current);
    }
  };

  return visit(value, 0);
}
