import type { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../spec/errors.js';

/** How a refused value is described in a validation message: `null`, `an array`, a short string, a number… */
export function describeReceived(value: unknown): string {
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

// The slice of zod's internal definition the key lookup reads.
interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  options?: readonly unknown[];
  getter?: () => unknown;
}

const defOf = (schema: unknown): SchemaDef | undefined =>
  (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;

/** The keys an object schema accepts; wrappers, pipes and unions are looked through. */
function objectKeys(schema: unknown, depth = 0): Set<string> {
  const def = defOf(schema);
  if (!def || depth > 16) return new Set();
  if (def.type === 'object') return new Set(Object.keys(def.shape ?? {}));
  if (def.type === 'union') return new Set((def.options ?? []).flatMap((option) => [...objectKeys(option, depth + 1)]));
  if (def.type === 'pipe') return objectKeys(def.in, depth + 1);
  if (def.type === 'lazy' && def.getter) return objectKeys(def.getter(), depth + 1);
  return def.innerType ? objectKeys(def.innerType, depth + 1) : new Set();
}

/** The schema of the value at `path` inside `schema`, as far as it can be followed. */
function schemaAt(schema: unknown, path: readonly PropertyKey[], depth = 0): unknown[] {
  const def = defOf(schema);
  if (!def || depth > 64) return [];
  if (path.length === 0) return [schema];
  const [key, ...rest] = path;
  switch (def.type) {
    case 'object': {
      const child = typeof key === 'string' ? def.shape?.[key] : undefined;
      return child ? schemaAt(child, rest, depth + 1) : [];
    }
    case 'array':
      return typeof key === 'number' ? schemaAt(def.element, rest, depth + 1) : [];
    case 'union':
      return (def.options ?? []).flatMap((option) => schemaAt(option, path, depth + 1));
    case 'pipe':
      return schemaAt(def.in, path, depth + 1);
    case 'lazy':
      return def.getter ? schemaAt(def.getter(), path, depth + 1) : [];
    default:
      return def.innerType ? schemaAt(def.innerType, path, depth + 1) : [];
  }
}

const camelCase = (key: string) => key.replace(/[_-]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

// Fields other memory libraries (Mem0, Zep, LangChain) take at the top level, and where memoir keeps them.
const SCOPE_FIELDS: Record<string, string> = {
  userId: 'userId',
  user_id: 'userId',
  agentId: 'agentId',
  agent_id: 'agentId',
  namespace: 'namespace',
};
const ALIASES: Record<string, readonly string[]> = {
  limit: ['k', 'limit'],
  top_k: ['k'],
  topK: ['k'],
  threshold: ['minScore'],
  score_threshold: ['minScore'],
  text: ['content'],
  memory: ['content'],
  data: ['content'],
  session: ['sessionId'],
  run_id: ['sessionId'],
  runId: ['sessionId'],
  tags: ['entities', 'metadata'],
};

/** A hint for one unknown key, given the keys the object accepts; undefined when there is none. */
function hintFor(key: string, known: ReadonlySet<string>): string | undefined {
  // Own keys only: an unknown field named `constructor` or `__proto__` must not find Object's members.
  const scoped = Object.hasOwn(SCOPE_FIELDS, key) ? SCOPE_FIELDS[key] : undefined;
  if (scoped && known.has('scope') && !known.has(key)) return `put it in scope: { ${scoped}: … }`;
  const camel = camelCase(key);
  if (camel !== key && known.has(camel)) return `did you mean ${camel}?`;
  // The other way round for the fields an outside format spells in snake_case (OpenAI's `tool_call_id`).
  const snake = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  if (snake !== key && known.has(snake)) return `did you mean ${snake}?`;
  const alias = (Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined)?.find((name) => known.has(name));
  if (alias) return `did you mean ${alias}?`;
  return undefined;
}

function unknownKeysMessage(keys: readonly string[], known: ReadonlySet<string>): string {
  const list = `unknown field(s) ${keys.map((key) => `"${key}"`).join(', ')}`;
  if (keys.length === 1) {
    const hint = hintFor(keys[0]!, known);
    return hint ? `${list}: ${hint}` : list;
  }
  const hints = keys.flatMap((key) => {
    const hint = hintFor(key, known);
    return hint ? [`"${key}": ${hint}`] : [];
  });
  return hints.length > 0 ? `${list} (${hints.join('; ')})` : list;
}

/**
 * Turn zod issues into memoir's: a dotted field path and what the field expects. With the
 * schema, an unknown field that another memory library uses gets a hint: `userId` → `put it
 * in scope: { userId: … }`, `user_id` inside a scope → `did you mean userId?`, `limit` → `k`.
 */
export function toValidationIssues(
  error: z.ZodError,
  input: unknown,
  fieldPrefix: string,
  schema?: z.ZodType,
): ValidationIssue[] {
  return error.issues.map((issue) => {
    const field = formatPath(fieldPrefix, issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = new Set(schema ? schemaAt(schema, issue.path).flatMap((node) => [...objectKeys(node)]) : []);
      return { field, message: unknownKeysMessage(issue.keys, known) };
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
  const issues = toValidationIssues(result.error, input, fieldPrefix, schema);
  const hinted = issues.some((issue) => /^unknown field\(s\) .*(?:: |\()(?:put it|did you)/.test(issue.message));
  throw new ValidationError(issues, {
    component,
    suggestion: hinted
      ? 'Rename the field as the message suggests (memoir keeps userId, agentId and namespace in `scope`).'
      : 'Check the field named in the message against the API reference.',
  });
}
