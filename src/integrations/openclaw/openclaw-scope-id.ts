import { createHash } from 'node:crypto';

// Host ids (agents, channels, senders, chats, sessions) become memoir scope ids, which are at
// most 256 characters. The mapping is injective, so two different people never share a scope:
// - each part is escaped (`%`, `:`, `#`, control characters and lone surrogates become `%XX` /
//   `%uXXXX`), so joining parts with `:` names them exactly — `a:b` + `c` is not `a` + `b:c`;
// - an id that fits is kept as it is, readable; a longer one becomes a readable prefix, `#`
//   and a SHA-256 of the whole id. Escaped ids never hold a raw `#`, so a short id cannot be
//   chosen to equal the hashed form of a long one.

/** The longest scope id memoir accepts (`scopeSchema`). */
export const SCOPE_ID_MAX = 256;

const hex = (code: number, width: number) => code.toString(16).toUpperCase().padStart(width, '0');

// Delimiters, control characters, and surrogates that are not half of a pair (which stores
// may not keep as they are).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped here.
const ESCAPED = /[%:#\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `part` with every character that could blur the boundaries between parts escaped. */
export function escapeIdPart(part: string): string {
  return part.replace(ESCAPED, (char) => {
    const code = char.charCodeAt(0);
    return code > 0xff ? `%u${hex(code, 4)}` : `%${hex(code, 2)}`;
  });
}

/**
 * `id` when it fits in `max` characters, else a readable prefix, `#` and a collision-resistant
 * hash of the whole id (SHA-256 of its UTF-16 code units, so ids that differ only in a lone
 * surrogate still differ). Injective over ids without a raw `#` (see {@link escapeIdPart}).
 */
export function boundedId(id: string, max = SCOPE_ID_MAX): string {
  if (id.length <= max) return id;
  const hash = createHash('sha256').update(Buffer.from(id, 'utf16le')).digest('base64url');
  let prefix = id.slice(0, max - hash.length - 1);
  // Never end the readable prefix on half of a surrogate pair.
  if (/[\ud800-\udbff]$/.test(prefix)) prefix = prefix.slice(0, -1);
  return `${prefix}#${hash}`;
}

/** The scope id of a kind (`sender`, `chat`, `group`) and its parts: escaped, joined, bounded. */
export function scopeIdOf(kind: string, parts: readonly string[]): string {
  return boundedId([kind, ...parts.map(escapeIdPart)].join(':'));
}
