/**
 * File names made from data (entity names, titles, slugs): whatever the data holds, the name
 * is one path segment that stays in its folder on every platform.
 */
import { createHash } from 'node:crypto';

/** The longest name `safeFileName` returns by default, in UTF-8 bytes (well under the 255 of most file systems, leaving room for an extension and a temp suffix). */
export const MAX_FILE_NAME_BYTES = 100;

// Separators, NUL and other control characters, the characters Windows refuses, and
// invisible format characters (a right-to-left override can disguise a name).
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\:*?"<>|]/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Device names Windows reserves, with or without an extension.
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const HASH_CHARS = 10;

/** Options of {@link safeFileName}. */
export interface SafeFileNameOptions {
  /** The longest name returned, UTF-8 bytes. Default {@link MAX_FILE_NAME_BYTES}. */
  maxBytes?: number;
  /** The stem used when nothing of the name is left, e.g. for `..` or an empty string. Default `unnamed`. */
  fallback?: string;
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

// The longest prefix of `text` of at most `bytes` UTF-8 bytes, cut between code points.
function truncateBytes(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/**
 * A file name (one path segment, no extension added) for `name`: separators, `..`, NUL,
 * control and invisible characters and the characters Windows refuses become `_`, leading
 * and trailing dots and spaces go, Windows device names (`CON`, `NUL`, …) get a `_` in
 * front, and the result is never empty. A name that had to change, or that is longer than
 * `maxBytes`, ends in `-` and a hash of the original name, so two names that differ only in
 * what was removed or cut off never share a file. A name that needs no change is kept as is.
 *
 * @example
 * ```ts
 * safeFileName('Peter'); // 'Peter'
 * safeFileName('../../x'); // '_x-<hash>' — never a path
 * ```
 */
export function safeFileName(name: string, options: SafeFileNameOptions = {}): string {
  const maxBytes = options.maxBytes ?? MAX_FILE_NAME_BYTES;
  const fallback = options.fallback ?? 'unnamed';
  let safe = name
    .replace(LONE_SURROGATE, '_')
    .normalize('NFC')
    .replace(UNSAFE, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (RESERVED.test(safe)) safe = `_${safe}`;
  if (safe === name && safe !== '' && utf8Bytes(safe) <= maxBytes) return safe;
  const suffix = `-${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_CHARS)}`;
  // Cutting may leave a trailing dot or space, which Windows drops from a name.
  const stem = truncateBytes(safe, Math.max(0, maxBytes - suffix.length)).replace(/[\s.]+$/, '');
  return `${stem === '' ? truncateBytes(fallback, Math.max(0, maxBytes - suffix.length)) : stem}${suffix}`;
}

/** True when `name` is one path segment memoir may create: what {@link safeFileName} returns for itself. */
export function isSafeFileName(name: string, maxBytes = 255): boolean {
  return name !== '' && safeFileName(name, { maxBytes }) === name;
}
