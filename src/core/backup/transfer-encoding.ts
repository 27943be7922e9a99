/**
 * The encodings of memoir's JSON Lines: canonical JSON (keys sorted, so equal data gives
 * equal text) and float32 vectors as little-endian base64, bit for bit.
 *
 * @module
 */

// ---------------------------------------------------------------------------
// Canonical JSON

/**
 * JSON with every object's keys sorted (by UTF-16 code units), recursively, and no
 * whitespace. Equal data always gives the same text. Like `JSON.stringify`, it drops
 * object properties whose value is `undefined`, writes `undefined` array items as `null`,
 * and honours `toJSON`.
 *
 * @throws TypeError for a non-finite number, a bigint or a circular structure.
 */
export function canonicalJson(value: unknown): string {
  return writeCanonical(value, new Set());
}

function writeCanonical(value: unknown, ancestors: Set<object>): string {
  if (value === null) return 'null';
  if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return writeCanonical((value as { toJSON: () => unknown }).toJSON(), ancestors);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: cannot write the number ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (ancestors.has(value)) throw new TypeError('canonicalJson: circular structure');
      ancestors.add(value);
      let text: string;
      if (Array.isArray(value)) {
        text = `[${value.map((item) => (item === undefined || typeof item === 'function' ? 'null' : writeCanonical(item, ancestors))).join(',')}]`;
      } else {
        const record = value as Record<string, unknown>;
        const parts: string[] = [];
        for (const key of Object.keys(record).sort()) {
          const item = record[key];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          parts.push(`${JSON.stringify(key)}:${writeCanonical(item, ancestors)}`);
        }
        text = `{${parts.join(',')}}`;
      }
      ancestors.delete(value);
      return text;
    }
    default:
      throw new TypeError(`canonicalJson: cannot write a ${typeof value}`);
  }
}

// ---------------------------------------------------------------------------
// Base64 of float32 vectors

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64_ALPHABET.length; i++) BASE64_VALUES[BASE64_ALPHABET.charCodeAt(i)] = i;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      BASE64_ALPHABET[n >> 18]! +
      BASE64_ALPHABET[(n >> 12) & 63]! +
      BASE64_ALPHABET[(n >> 6) & 63]! +
      BASE64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${BASE64_ALPHABET[n >> 18]!}${BASE64_ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${BASE64_ALPHABET[n >> 18]!}${BASE64_ALPHABET[(n >> 12) & 63]!}${BASE64_ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** Strict decoding: padded, standard alphabet, nothing else; null when the text isn't that. */
function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const code = text.charCodeAt(i + j);
      const isPadding = code === 61 && i + 4 === text.length && j >= 4 - padding;
      const digit = isPadding ? 0 : code < 128 ? BASE64_VALUES[code]! : -1;
      if (digit < 0) return null;
      n = (n << 6) | digit;
    }
    if (at < bytes.length) bytes[at++] = (n >> 16) & 255;
    if (at < bytes.length) bytes[at++] = (n >> 8) & 255;
    if (at < bytes.length) bytes[at++] = n & 255;
  }
  return bytes;
}

// Byte copies rather than DataView floats, so every bit (NaN payloads included) survives.
function swapWords(bytes: Uint8Array): void {
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const [a, b, c, d] = [bytes[i]!, bytes[i + 1]!, bytes[i + 2]!, bytes[i + 3]!];
    bytes[i] = d;
    bytes[i + 1] = c;
    bytes[i + 2] = b;
    bytes[i + 3] = a;
  }
}

/** Base64 of a vector's float32 values, little-endian. */
export function encodeEmbedding(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
  if (!LITTLE_ENDIAN) swapWords(bytes);
  return encodeBase64(bytes);
}

/** The vector written by `encodeEmbedding`, or null when `text` is not base64 of `dimensions` floats. */
export function decodeEmbedding(text: string, dimensions: number): Float32Array | null {
  const bytes = decodeBase64(text);
  if (!bytes || bytes.length !== dimensions * 4) return null;
  if (!LITTLE_ENDIAN) swapWords(bytes);
  return new Float32Array(bytes.buffer, 0, dimensions);
}
