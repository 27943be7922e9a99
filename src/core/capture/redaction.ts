/**
 * Secret and PII redaction for captured tool events: API keys, bearer tokens, passwords,
 * e-mail addresses and Luhn-valid card numbers become `[REDACTED:<rule name>]`.
 *
 * @module
 */

/** Builds the text that replaces a match; receives the match and its capture groups. */
export type RedactionReplacer = (match: string, ...groups: string[]) => string;

/**
 * One redaction rule: every match of `pattern` is replaced.
 *
 * @group Capture
 */
export interface RedactionRule {
  /** Short name, shown in the default replacement `[REDACTED:<name>]`. */
  name: string;
  /** What to redact. A string is compiled as a regular expression; every match is replaced (the `g` flag is implied). */
  pattern: RegExp | string;
  /**
   * The replacement. A string may use `$1`-style group references, as in
   * `String.prototype.replace`; a function receives the match and its groups.
   * Default `[REDACTED:<name>]`.
   */
  replacement?: string | RedactionReplacer;
}

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

function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

const tag = (name: string) => `[REDACTED:${name}]`;

/**
 * The rules applied by default, in order. Later rules see the output of earlier ones,
 * so a key already redacted is not matched again as a card number.
 *
 * @group Capture
 */
export const builtInRedactionRules: readonly RedactionRule[] = Object.freeze([
  {
    name: 'private-key',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  },
  {
    name: 'bearer-token',
    pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]{8,}=*/gi,
    replacement: (_match, scheme) => `${scheme} ${tag('bearer-token')}`,
  },
  {
    name: 'api-key',
    pattern:
      /\b(?:sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}|(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}\b|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})/g,
  },
  {
    name: 'password',
    pattern: /\b(pass(?:word|wd|phrase)?|pwd)(["']?\s*[:=]\s*|\s+is\s+)(["']?)([^\s"'`,;&]+)/gi,
    replacement: (_match, key, separator, quote) => `${key}${separator}${quote}${tag('password')}`,
  },
  {
    name: 'secret',
    pattern:
      /\b([A-Za-z0-9_-]*?(?:key|token|secret|credential)s?)(["']?\s*[:=]\s*["']?|\s+is\s+)([A-Za-z0-9+/_\-.]{16,}={0,2})/gi,
    replacement: (_match, key, separator) => `${key}${separator}${tag('secret')}`,
  },
  {
    name: 'email',
    pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g,
  },
  {
    // Card numbers start with 2-6 (Mastercard, Amex, Visa, Discover…); epoch-millisecond
    // timestamps start with 1 and are left alone. Numbers failing the Luhn check are kept.
    name: 'card-number',
    pattern: /\b[2-6](?:[ -]?\d){12,18}\b/g,
    replacement: (match) => {
      const digits = match.replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? tag('card-number') : match;
    },
  },
]);

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
  for (const rule of rules) {
    const replacement = rule.replacement ?? tag(rule.name);
    const regex = regexOf(rule);
    out =
      typeof replacement === 'string'
        ? out.replace(regex, replacement)
        : out.replace(regex, (match: string, ...rest: unknown[]) => {
            const groups = rest.filter((item): item is string => typeof item === 'string' || item === undefined);
            return replacement(match, ...groups.map((group) => group ?? ''));
          });
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
