import { z } from 'zod';
import { tenantScopeSchema } from '../../core/spec/memory.js';
import { parseInput } from '../../core/utils/validate.js';
import type { MemoryClient, Scope } from '../../index.js';
import { COMPONENT } from './langgraph-operations.js';

/**
 * Options of `new MemoirStore(…)`: a client (`memory`), or where to open one (`home`, `scope`).
 *
 * @group LangGraph
 */
export interface MemoirStoreOptions {
  /**
   * The memoir client the store keeps its items in. Its scope is the store's: a client created
   * with `scope: { userId: 'u1' }` makes a store that reads and writes only u1's items. You own
   * it (close it yourself). Not with `home` or `scope`.
   */
  memory?: MemoryClient;
  /**
   * Open memoir's SQLite home, as the `memoir` command does: `<home>/memoir.sqlite` with the
   * config file and `MEMOIR_*` variables of that home. Default (no `memory`, no `home`): the
   * configured home (`MEMOIR_HOME`, else `~/.memoir`). The store owns that client and closes it
   * on `stop()`.
   */
  home?: string;
  /** With `home` (or without `memory`): the scope of the client the store opens. Default: unscoped. */
  scope?: Scope;
  /** What recall searches in each value. */
  index?: {
    /**
     * Field paths, as LangGraph's `index.fields` (`"text"`, `"profile.name"`, `"notes[*]"`;
     * `"$"` is the whole value). Default: the whole value. A put's own `index` wins.
     */
    fields?: string[];
  };
}

const clientSchema = z.custom<MemoryClient>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    ['retain', 'recall', 'get', 'list', 'update', 'forget', 'close'].every(
      (method) => typeof (value as Record<string, unknown>)[method] === 'function',
    ),
  { message: 'expected a memoir client (createMemory(…))' },
);

const optionsSchema = z
  .object({
    memory: clientSchema.optional(),
    home: z.string().min(1).optional(),
    scope: tenantScopeSchema.optional(),
    index: z
      .object({ fields: z.array(z.string().min(1).max(1024)).min(1).max(100).optional() })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((options, ctx) => {
    if (options.memory === undefined) return;
    for (const field of ['home', 'scope'] as const) {
      if (options[field] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `expected either memory or ${field}, not both (a client has its own home and scope)`,
        });
      }
    }
  });

/** The options, parsed once. */
export type ParsedStoreOptions = z.output<typeof optionsSchema>;

/** Parse the constructor's options; a bad one is a ValidationError naming it (`options.home`). */
export function parseStoreOptions(input: unknown): ParsedStoreOptions {
  return parseInput(optionsSchema, input ?? {}, COMPONENT, 'options');
}
