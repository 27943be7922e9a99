/** Nesting below which `stableJson` writes `null`, so hostile depth cannot overflow the stack. */
const MAX_DEPTH = 256;

/**
 * JSON with object keys sorted, so equal values give equal text whatever their key order.
 * Lenient, it never throws: undefined properties are left out; a bigint is written as its
 * decimal digits (so `5n` and `5` compare equal, as they would once stored as JSON); a
 * value that contains itself, anything nested deeper than 256 levels and anything else
 * JSON can't write become null.
 */
export function stableJson(value: unknown): string {
  return write(value, new Set(), 0);
}

function write(value: unknown, ancestors: Set<object>, depth: number): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') {
    return (typeof value === 'symbol' || typeof value === 'function' ? undefined : JSON.stringify(value)) ?? 'null';
  }
  if (depth >= MAX_DEPTH || ancestors.has(value)) return 'null';
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => write(item, ancestors, depth + 1)).join(',')}]`;
  } else {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    text = `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${write(item, ancestors, depth + 1)}`).join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}
