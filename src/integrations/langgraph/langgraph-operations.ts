import { z } from 'zod';
import { toValidationIssues } from '../../core/utils/validate.js';
import { ValidationError } from '../../index.js';
import { withoutUndefined } from './langgraph-value.js';

// The operations `batch` takes, parsed once: LangGraph's shapes, with its own rules for
// namespace labels (non-empty, no `.`, `:` or NUL; a put's root is not "langgraph"), so a
// batch that breaks one is refused with a ValidationError naming the field, and nothing of it
// is written.

/** Component name in MemoirStore's errors. */
export const COMPONENT = 'MemoirStore';

/** The most items or namespaces one search or listing returns. */
export const MAX_LIMIT = 100_000;

const label = z
  .string()
  .min(1, 'expected a non-empty label')
  .max(1024)
  .refine((text) => !/[.:\0]/.test(text), {
    message: 'expected a label without ".", ":" or NUL (LangGraph reserves them)',
  });

const namespace = z.array(label).max(64);

const plainObject = z.custom<Record<string, unknown>>(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  },
  { message: 'expected a plain JSON object' },
);

const getSchema = z.object({ namespace, key: z.string().max(4096) }).strict();

const putSchema = z
  .object({
    namespace: namespace
      .min(1, 'expected at least one label')
      .refine((labels) => labels[0] !== 'langgraph', { message: 'expected a root label other than "langgraph"' }),
    key: z.string().max(4096),
    value: z
      .union([plainObject, z.null()])
      .transform((value) => withoutUndefined(value) as Record<string, unknown> | null),
    index: z.union([z.literal(false), z.array(z.string().min(1).max(1024)).max(100)]).optional(),
  })
  .strict();

const searchSchema = z
  .object({
    namespacePrefix: namespace,
    filter: plainObject.optional(),
    limit: z.number().int().min(0).max(MAX_LIMIT).default(10),
    offset: z.number().int().min(0).default(0),
    query: z.string().max(100_000).optional(),
  })
  .strict();

const listSchema = z
  .object({
    matchConditions: z
      .array(
        z
          .object({
            matchType: z.enum(['prefix', 'suffix']),
            path: z.array(z.string().min(1).max(1024)).max(64),
          })
          .strict(),
      )
      .max(16)
      .optional(),
    maxDepth: z.number().int().min(1).max(64).optional(),
    limit: z.number().int().min(0).max(MAX_LIMIT).default(100),
    offset: z.number().int().min(0).default(0),
  })
  .strict();

/** A parsed operation, tagged by its kind. */
export type ParsedOperation =
  | ({ kind: 'get' } & z.output<typeof getSchema>)
  | ({ kind: 'put' } & z.output<typeof putSchema>)
  | ({ kind: 'search' } & z.output<typeof searchSchema>)
  | ({ kind: 'list' } & z.output<typeof listSchema>);

// Which operation an object is, by its keys, as LangGraph's stores tell them apart.
function kindOf(operation: Record<string, unknown>): ParsedOperation['kind'] | undefined {
  if ('namespacePrefix' in operation) return 'search';
  if ('value' in operation) return 'put';
  if ('namespace' in operation || 'key' in operation) return 'get';
  if ('matchConditions' in operation || 'limit' in operation || 'offset' in operation || 'maxDepth' in operation)
    return 'list';
  return undefined;
}

const SCHEMAS = { get: getSchema, put: putSchema, search: searchSchema, list: listSchema } as const;

/**
 * Parse one operation, or throw a ValidationError whose fields start with `field`
 * (`operations[2]` in a batch, empty for a single call).
 */
export function parseOperation(input: unknown, field: string): ParsedOperation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ValidationError([{ field: field || 'operation', message: 'expected an operation object' }], {
      component: COMPONENT,
    });
  }
  const kind = kindOf(input as Record<string, unknown>);
  if (kind === undefined) {
    throw new ValidationError(
      [
        {
          field: field || 'operation',
          message:
            'expected a get ({ namespace, key }), put ({ namespace, key, value }), search ({ namespacePrefix }) or listNamespaces ({ limit, offset }) operation',
        },
      ],
      { component: COMPONENT },
    );
  }
  const schema = SCHEMAS[kind];
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ValidationError(toValidationIssues(result.error, input, field, schema), {
      component: COMPONENT,
      suggestion: `Check the field against LangGraph's ${kind === 'list' ? 'listNamespaces' : kind} operation.`,
    });
  }
  return { kind, ...result.data } as ParsedOperation;
}

/** Parse a whole batch; the first bad operation throws, before anything runs. */
export function parseOperations(input: unknown): ParsedOperation[] {
  if (!Array.isArray(input)) {
    throw new ValidationError([{ field: 'operations', message: 'expected an array of operations' }], {
      component: COMPONENT,
    });
  }
  // Array.from visits the holes of a sparse array, so each one is refused like any missing operation.
  return Array.from(input, (operation: unknown, index) => parseOperation(operation, `operations[${index}]`));
}
