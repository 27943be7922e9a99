// The built-in redaction rules as data, in the style of secret scanners such as gitleaks:
// each has an id (`name`), a regular expression, and `keywords` that must appear in the text
// for the rule to run at all. Rules whose matches need a checksum (card numbers: Luhn; IBANs:
// ISO 7064 mod 97) check it in their replacement and keep a match that fails it.

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
  /**
   * Words of which at least one must appear in the text (case-insensitive) for the rule to
   * run, as in secret scanners such as gitleaks: a cheap test that skips the regular
   * expression on text that cannot match. Default: the rule always runs.
   */
  keywords?: readonly string[];
}

const tag = (name: string) => `[REDACTED:${name}]`;

/** Luhn checksum of a string of digits (card numbers). */
export function luhnValid(digits: string): boolean {
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

// IBAN length per country (the SWIFT IBAN registry); a country not listed is not an IBAN.
const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  [
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18',
    'DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23',
    'IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31',
    'MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24',
    'SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30',
  ]
    .join(' ')
    .split(' ')
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/** True for an IBAN (spaces allowed) of its country's length whose ISO 7064 mod-97 check holds. */
export function ibanValid(text: string): boolean {
  const iban = text.replace(/ /g, '').toUpperCase();
  if (IBAN_LENGTHS.get(iban.slice(0, 2)) !== iban.length) return false;
  let remainder = 0;
  for (const char of iban.slice(4) + iban.slice(0, 4)) {
    const code = char.charCodeAt(0);
    // Letters count as 10..35, so they add two digits.
    const value = code >= 65 ? code - 55 : code - 48;
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

const digitCount = (text: string) => text.replace(/\D/g, '').length;

/**
 * The rules applied by default, in order. Later rules see the output of earlier ones, so a
 * key already redacted is not matched again as a card number.
 *
 * | name | what | check |
 * |---|---|---|
 * | `private-key` | PEM private keys | |
 * | `bearer-token` | `Bearer …` / `Basic …` credentials | |
 * | `api-key` | OpenAI/Anthropic `sk-…`, GitHub `ghp_…`, AWS `AKIA…`, Slack `xox…`, Google `AIza…`, JWTs | |
 * | `stripe-key` | Stripe secret and restricted keys `sk_live_…`, `rk_live_…` (and `_test_`), webhook secrets `whsec_…` | |
 * | `npm-token` | npm access tokens `npm_…` | |
 * | `url-password` | the password in `scheme://user:password@host` (database URLs, proxies) | |
 * | `password` | `password: …`, `pwd=…`, `passphrase is …` | |
 * | `secret` | long values after `…key`, `…token`, `…secret`, `…credential` | |
 * | `email` | e-mail addresses | |
 * | `iban` | IBANs, with or without spaces | country length, mod 97 |
 * | `card-number` | payment card numbers | Luhn |
 * | `us-ssn` | US social security numbers `123-45-6789`, or nine digits after "SSN" | area, group and serial not zero |
 * | `phone-number` | `+` international numbers, North American `(415) 555-2671` / `415-555-2671`, and any number after "phone", "tel", "mobile"… | 7–15 digits |
 *
 * @group Capture
 */
export const builtInRedactionRules: readonly RedactionRule[] = Object.freeze([
  {
    name: 'private-key',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
    keywords: ['private key-----'],
  },
  {
    name: 'bearer-token',
    pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]{8,}=*/gi,
    replacement: (_match, scheme) => `${scheme} ${tag('bearer-token')}`,
    keywords: ['bearer', 'basic'],
  },
  {
    name: 'api-key',
    pattern:
      /\b(?:sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}|(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}\b|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})/g,
    keywords: ['sk-', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'akia', 'asia', 'xox', 'aiza', 'eyj'],
  },
  {
    name: 'stripe-key',
    pattern: /\b(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,247}|whsec_[0-9A-Za-z]{24,})\b/g,
    keywords: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'],
  },
  {
    name: 'npm-token',
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
    keywords: ['npm_'],
  },
  {
    // The userinfo runs to the last "@" of the authority, so a password holding "@" or ":" goes whole.
    name: 'url-password',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/?#]*):([^\s/?#]+)@(?=[^\s@/?#]+)/gi,
    replacement: (_match, scheme, user) => `${scheme}${user}:${tag('url-password')}@`,
    keywords: ['://'],
  },
  {
    name: 'password',
    pattern: /\b(pass(?:word|wd|phrase)?|pwd)(["']?\s*[:=]\s*|\s+is\s+)(["']?)([^\s"'`,;&]+)/gi,
    replacement: (_match, key, separator, quote) => `${key}${separator}${quote}${tag('password')}`,
    keywords: ['pass', 'pwd'],
  },
  {
    name: 'secret',
    pattern:
      /\b([A-Za-z0-9_-]*?(?:key|token|secret|credential)s?)(["']?\s*[:=]\s*["']?|\s+is\s+)([A-Za-z0-9+/_\-.]{16,}={0,2})/gi,
    replacement: (_match, key, separator) => `${key}${separator}${tag('secret')}`,
    keywords: ['key', 'token', 'secret', 'credential'],
  },
  {
    name: 'email',
    pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g,
    keywords: ['@'],
  },
  {
    // Two letters, two check digits, then 11 to 30 letters or digits, grouped by four or not;
    // kept unless the country's length and the mod-97 check both hold.
    name: 'iban',
    pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g,
    replacement: (match) => (ibanValid(match) ? tag('iban') : match),
  },
  {
    // Card numbers start with 2-6 (Mastercard, Amex, Visa, Discover…); epoch-millisecond
    // timestamps start with 1 and are left alone. Numbers failing the Luhn check are kept,
    // and so is a number after "+", which is a phone number.
    name: 'card-number',
    pattern: /(?<!\+)\b[2-6](?:[ -]?\d){12,18}\b/g,
    replacement: (match) => {
      const digits = match.replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? tag('card-number') : match;
    },
  },
  {
    // Dashed only (nine bare digits are too often something else) unless labelled; area 000,
    // 666 and 9xx, group 00 and serial 0000 are never issued.
    name: 'us-ssn',
    pattern:
      /(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])|\b((?:ssn|social security(?: number| no\.?)?)["']?\s*(?:#|:|=|is)?\s*["']?)(\d{3}[ -]?\d{2}[ -]?\d{4})\b/gi,
    replacement: (_match, label) => (label ? `${label}${tag('us-ssn')}` : tag('us-ssn')),
  },
  {
    // International numbers start with "+" (E.164: at most 15 digits); North American ones
    // need the 3-3-4 grouping with an area code and exchange not starting with 0 or 1; any
    // other format counts only after a label. Dates, times, versions, IP addresses and
    // plain long numbers have none of these shapes.
    name: 'phone-number',
    pattern:
      /(?<![\w+])\+\d(?:[ .()-]{0,2}\d){6,14}(?![\w])|(?<![\w.+-])(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])[2-9]\d{2}[ .-]\d{4}(?![\w]|[.-]\d)|\b((?:phone|tel|telephone|mobile|cell|fax|whatsapp)(?:[ _]?(?:number|no\.?|#))?["']?\s*[:=]?\s*["']?)(\+?\d[\d ().-]{5,20}\d)\b/gi,
    replacement: (match, label, number) => {
      if (label) {
        const digits = digitCount(number ?? '');
        return digits >= 7 && digits <= 15 ? `${label}${tag('phone-number')}` : match;
      }
      const digits = digitCount(match);
      return digits >= 8 && digits <= 15 ? tag('phone-number') : match;
    },
  },
]);
