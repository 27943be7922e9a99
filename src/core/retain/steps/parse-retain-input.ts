import type { z } from 'zod';
import { scopeForWrite } from '../../search/scope-boundary.js';
import { ValidationError } from '../../spec/errors.js';
import { memoryInputSchema, type Scope } from '../../spec/memory.js';
import { MAX_BATCH } from '../../utils/common-schemas.js';
import { parseInput } from '../../utils/validate.js';
import { retainOptionsSchema } from '../retain-options.js';

/** A retain input parsed and placed inside the client's scope. */
export type ParsedRetainInput = z.output<typeof memoryInputSchema>;

/** Inputs are parsed and placed inside the client's scope before anything is written. */
export function parseRetainInputs(input: unknown, clientScope: Scope | undefined): ParsedRetainInput[] {
  const single = !Array.isArray(input);
  const items: unknown[] = single ? [input] : (input as unknown[]);
  if (items.length === 0 || items.length > MAX_BATCH) {
    throw new ValidationError(
      [{ field: 'input', message: `expected 1 to ${MAX_BATCH} memories (got ${items.length})` }],
      { component: 'retain' },
    );
  }
  // Array.from visits the holes of a sparse array, which `map` would skip and keep as holes.
  return Array.from(items, (item, index) => {
    const field = single ? 'input' : `input[${index}]`;
    const parsed = parseInput(memoryInputSchema, typeof item === 'string' ? { content: item } : item, 'retain', field);
    return { ...parsed, scope: scopeForWrite(clientScope, parsed.scope, `${field}.scope`, 'retain') };
  });
}

/** Ids the inputs bring themselves; the same id twice in one batch is refused. */
export function ownIds(inputs: readonly { id?: string }[]): Set<string> {
  const seen = new Set<string>();
  inputs.forEach((item, index) => {
    if (item.id === undefined) return;
    if (seen.has(item.id)) {
      throw new ValidationError(
        [{ field: `input[${index}].id`, message: `id "${item.id}" appears twice in the batch` }],
        { component: 'retain' },
      );
    }
    seen.add(item.id);
  });
  return seen;
}

/** Retain's options, parsed; `corrections: 'model'` needs a language model on the client. */
export function parseRetainOptions(options: unknown, hasModel: boolean): z.output<typeof retainOptionsSchema> {
  const parsed = parseInput(retainOptionsSchema, options ?? {}, 'retain', 'options');
  if (parsed.corrections === 'model' && !hasModel)
    throw new ValidationError(
      [{ field: 'options.corrections', message: "'model' needs a languageModel on the client" }],
      {
        component: 'retain',
      },
    );
  return parsed;
}
