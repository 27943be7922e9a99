import type { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../spec/errors.js';

function describeReceived(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a string' : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Turn zod issues into memoir's: a dotted field path and what the field expects. */
export function toValidationIssues(error: z.ZodError, input: unknown, fieldPrefix: string): ValidationIssue[] {
  return error.issues.map((issue) => {
    const field = formatPath(fieldPrefix, issue.path);
    if (issue.code === 'unrecognized_keys') {
      return { field, message: `unknown field(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}` };
    }
    const received = valueAt(input, issue.path);
    const got = received === undefined ? 'nothing' : describeReceived(received);
    const expectation = issue.message.replace(/^Invalid input: /, '');
    return { field, message: `${expectation} (got ${got})` };
  });
}

/**
 * Parse `input` with `schema` or throw a ValidationError naming the component and each
 * offending field, e.g. `retain: input[2].importance: expected a number <= 1 (got 3)`.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  component: string,
  fieldPrefix = '',
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(toValidationIssues(result.error, input, fieldPrefix), {
    component,
    suggestion: 'Check the field named in the message against the API reference.',
  });
}
