/**
 * Keys a model may send that JavaScript does not keep as data. `JSON.parse` keeps a
 * `__proto__` key as an own property, but an assignment, a spread or a zod record turns it
 * into the prototype and the key vanishes silently; the library refuses it in metadata, so
 * every tool refuses it anywhere in its arguments, before parsing can lose it. `constructor`
 * and `prototype` are ordinary own keys and are kept as the data they are.
 */
import { ValidationError, type ValidationIssue } from '../../core/spec/errors.js';
import { describeReceived } from '../../core/utils/validate.js';

/** The one key JSON keeps that an object assignment does not. */
export const PROTO_KEY = '__proto__';

interface Frame {
  readonly value: unknown;
  readonly parent: Frame | undefined;
  readonly key: PropertyKey | undefined;
}

function isWalkable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path of the first own `__proto__` key anywhere inside `value` (plain objects and
 * arrays), or undefined when there is none. Iterative, so hostile nesting cannot overflow
 * the stack; each object is visited once, so a cycle (from an in-process caller) ends.
 *
 * @param value - Tool arguments as received.
 * @returns The key's path, e.g. `['metadata', 'a', '__proto__']`.
 */
export function findProtoKey(value: unknown): PropertyKey[] | undefined {
  const stack: Frame[] = [{ value, parent: undefined, key: undefined }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (!isWalkable(current) || seen.has(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index], parent: frame, key: index });
      }
      continue;
    }
    if (Object.hasOwn(current, PROTO_KEY)) return pathOf({ value: undefined, parent: frame, key: PROTO_KEY });
    const keys = Object.keys(current);
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      stack.push({ value: (current as Record<string, unknown>)[key], parent: frame, key });
    }
  }
  return undefined;
}

/** A path as memoir prints fields: `metadata.list[0].__proto__`. */
export function formatField(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * The issue of a `__proto__` key at `path` of a tool's arguments; for metadata its wording
 * is the library's own (`metadata.__proto__: the key "__proto__" is not allowed in metadata (got …)`).
 *
 * @param args - The arguments the key is in.
 * @param path - Where the key is, from {@link findProtoKey}.
 * @returns The field and what is wrong with it.
 */
export function protoKeyIssue(args: unknown, path: readonly PropertyKey[]): ValidationIssue {
  const within = path.length > 1 ? String(path[0]) : 'tool arguments';
  const got = describeReceived(valueAt(args, path));
  return { field: formatField(path), message: `the key "${PROTO_KEY}" is not allowed in ${within} (got ${got})` };
}

/**
 * The ValidationError a tool answers a `__proto__` key with.
 *
 * @param tool - The tool's name, the error's component.
 * @param issue - From {@link protoKeyIssue}.
 * @returns The error to throw.
 */
export function protoKeyError(tool: string, issue: ValidationIssue): ValidationError {
  return new ValidationError([issue], {
    component: tool,
    suggestion: `Rename that key and call ${tool} again.`,
  });
}
