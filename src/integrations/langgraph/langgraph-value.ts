import { isPlainObject } from '../../core/spec/memory.js';
import type { JsonValue } from '../../index.js';

// An item's value: what memoir searches in it (its text) and how `filter` matches it.

/**
 * `value` with object properties that are `undefined` left out, as JSON (and LangGraph's
 * database stores) write it. Everything else is kept for memoir's JSON check to judge.
 */
export function withoutUndefined(value: unknown, depth = 0): unknown {
  // Deeper than memoir keeps is refused by its own check; stop copying there.
  if (depth > 80) return value;
  if (Array.isArray(value)) return value.map((item) => withoutUndefined(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) copy[key] = withoutUndefined(item, depth + 1);
  }
  return copy;
}

function leafText(value: JsonValue): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Every leaf of `value` with its dotted path (`profile.name`, `tags[1]`). */
function leaves(value: JsonValue, path: string, out: Array<[string, string]>): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) leaves(item, `${path}[${index}]`, out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) leaves(item, path ? `${path}.${key}` : key, out);
    return;
  }
  const text = leafText(value);
  if (text !== undefined && text.trim() !== '') out.push([path, text]);
}

/** Split a LangGraph field path into tokens: `a.b[*].c` → `a`, `b`, `[*]`, `c`; `{a,b}` stays one token. */
function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (let at = 0; at < path.length; at++) {
    const char = path[at]!;
    if (char === '[' || char === '{') {
      if (current) tokens.push(current);
      const close = path.indexOf(char === '[' ? ']' : '}', at);
      const end = close === -1 ? path.length : close + 1;
      tokens.push(path.slice(at, end));
      current = '';
      at = end - 1;
    } else if (char === '.') {
      if (current) tokens.push(current);
      current = '';
    } else current += char;
  }
  if (current) tokens.push(current);
  return tokens;
}

/** The values at a LangGraph field path (`"text"`, `"a.b"`, `"items[*].name"`, `"list[-1]"`, `"{a,b}"`, `"*"`). */
function valuesAt(value: JsonValue, tokens: readonly string[]): JsonValue[] {
  if (tokens.length === 0) return [value];
  const [token, ...rest] = tokens as [string, ...string[]];
  if (token.startsWith('[') && token.endsWith(']')) {
    if (!Array.isArray(value)) return [];
    const index = token.slice(1, -1);
    if (index === '*') return value.flatMap((item) => valuesAt(item, rest));
    const position = Number.parseInt(index, 10);
    const item = Number.isNaN(position) ? undefined : value.at(position);
    return item === undefined ? [] : valuesAt(item, rest);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return token === '*' && Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : [];
  }
  if (token.startsWith('{') && token.endsWith('}')) {
    return token
      .slice(1, -1)
      .split(',')
      .map((field) => field.trim())
      .filter(Boolean)
      .flatMap((field) => valuesAt(value, [...tokenize(field), ...rest]));
  }
  if (token === '*') return Object.values(value).flatMap((item) => valuesAt(item, rest));
  return Object.hasOwn(value, token) ? valuesAt(value[token]!, rest) : [];
}

/**
 * The text memoir indexes for an item: with `fields` (LangGraph's `index` paths), the text at
 * each path, one per line; otherwise every leaf of the value as `path: text`, one per line
 * (a value with a single leaf is just its text). Empty when the value holds no text.
 */
export function searchableText(value: Record<string, JsonValue>, fields: readonly string[] | undefined): string {
  const whole = fields === undefined || fields.includes('$');
  const lines: string[] = [];
  if (whole) {
    const found: Array<[string, string]> = [];
    leaves(value, '', found);
    if (found.length === 1) lines.push(found[0]![1]);
    else for (const [path, text] of found) lines.push(`${path}: ${text}`);
  }
  for (const field of fields ?? []) {
    if (field === '$') continue;
    for (const found of valuesAt(value, tokenize(field))) {
      const text = leafText(found) ?? (found === null ? undefined : JSON.stringify(found));
      if (text !== undefined && text.trim() !== '') lines.push(text);
    }
  }
  return lines.join('\n').trim();
}

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

function isOperatorObject(filter: unknown): filter is Record<string, unknown> {
  return (
    isPlainObject(filter) && Object.keys(filter).length > 0 && Object.keys(filter).every((key) => OPERATORS.has(key))
  );
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, at) => deepEqual(item, b[at]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
    );
  }
  return false;
}

function meetsOperator(field: unknown, operator: string, operand: unknown): boolean {
  switch (operator) {
    case '$eq':
      return deepEqual(field, operand);
    case '$ne':
      return !deepEqual(field, operand);
    // Numbers compare as numbers, as LangGraph's in-memory store does (`Number(value)`).
    case '$gt':
      return Number(field) > Number(operand);
    case '$gte':
      return Number(field) >= Number(operand);
    case '$lt':
      return Number(field) < Number(operand);
    case '$lte':
      return Number(field) <= Number(operand);
    case '$in':
      return Array.isArray(operand) && operand.some((item) => deepEqual(field, item));
    default:
      return Array.isArray(operand) ? !operand.some((item) => deepEqual(field, item)) : true;
  }
}

/** True when `value` meets every condition of `filter` (see `LangGraphSearchOperation.filter`). */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([key, condition]) => {
    const field = Object.hasOwn(value, key) ? value[key] : undefined;
    if (isOperatorObject(condition)) {
      return Object.entries(condition).every(([operator, operand]) => meetsOperator(field, operator, operand));
    }
    return deepEqual(field, condition);
  });
}
