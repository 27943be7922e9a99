import { createHash } from 'node:crypto';
import { z } from 'zod';
import { slugify } from '../procedure-files/procedure-file.js';
import { ValidationError } from '../spec/errors.js';
import type { Memory, Scope } from '../spec/memory.js';
import type { Procedure } from '../spec/records.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { stableJson } from '../utils/stable-json.js';
import { parseInput } from '../utils/validate.js';
import { scopeFilter, scopeOption, succeeded, toolOf } from './action-memories.js';

/** Options of `workflowFromSession`. */
export interface WorkflowFromSessionOptions {
  /** The current time, epoch milliseconds; becomes `createdAt`, `updatedAt` and `lastUsedAt`. */
  now: number;
  /** Only memories of this scope; also the procedure's scope. Default: every scope, procedure scope `{}`. */
  scope?: Scope;
}

const fromSessionSchema = z
  .object({
    sessionId: z.string().min(1),
    name: z.string().trim().min(1).max(512),
    options: z.object({ now: z.number().finite(), scope: scopeOption }).strict(),
  })
  .strict();

/** A readable step for one action, e.g. `mouse_click({"x":500,"y":300})`. */
function stepOf(memory: Memory): string {
  const tool = toolOf(memory);
  if (tool === null) return memory.abstract || (memory.content.split('\n')[0] ?? memory.content);
  const parameters = memory.metadata.parameters;
  const hasParameters =
    parameters !== undefined &&
    parameters !== null &&
    !(typeof parameters === 'object' && !Array.isArray(parameters) && Object.keys(parameters).length === 0);
  return `${tool}(${hasParameters ? stableJson(parameters) : ''})`;
}

/**
 * Build a reusable {@link Procedure} from one session: its successful action memories
 * (category `action`, `metadata.success !== false`), in `occurredAt` order, become the
 * steps, each written as `tool(<parameters as canonical JSON>)`.
 *
 * The procedure has `source: 'session'`, `title: name`, `triggerExamples: [name]`,
 * `successCount: 1` and metadata `{ sessionId, actionIds }`. Its id is
 * `<slug of name>-<8 hex digits from scope and session>`, so building it again from the
 * same session replaces it. Nothing is written: store it with `store.procedures.upsert`.
 *
 * Throws a ValidationError when the arguments are malformed or the session has no
 * successful actions.
 */
export async function workflowFromSession(
  given: StoreLike,
  sessionId: string,
  name: string,
  options: WorkflowFromSessionOptions,
): Promise<Procedure> {
  const store = coreStore(given);
  const parsed = parseInput(fromSessionSchema, { sessionId, name, options }, 'workflowFromSession');
  const scope = parsed.options.scope;
  const memories = await store.listMemories({
    filter: { ...scopeFilter(scope), categories: ['action'], sessionId: parsed.sessionId },
    orderBy: 'occurredAt',
    direction: 'asc',
  });
  const actions = memories.filter(succeeded);
  if (actions.length === 0) {
    throw new ValidationError(
      [
        {
          field: 'sessionId',
          message: `session "${parsed.sessionId}" has no successful action memories${memories.length > 0 ? ` (${memories.length} failed)` : ''}`,
        },
      ],
      {
        component: 'workflowFromSession',
        suggestion:
          'Capture tool calls with sessionId set (createCapture or withCapture) and pick a session with successful actions.',
      },
    );
  }
  const at = new Date(parsed.options.now).toISOString();
  const hash = createHash('sha256')
    .update(stableJson(scope ?? {}))
    .update('\u0000')
    .update(parsed.sessionId)
    .digest('hex')
    .slice(0, 8);
  return {
    id: `${slugify(parsed.name, 'workflow')}-${hash}`,
    title: parsed.name,
    triggerExamples: [parsed.name],
    steps: actions.map(stepOf),
    whatWorks: [],
    whatDoesNotWork: [],
    outputFormat: null,
    successCount: 1,
    failureCount: 0,
    lastUsedAt: at,
    source: 'session',
    videoEvidence: [],
    scope: scope ?? {},
    createdAt: at,
    updatedAt: at,
    metadata: { sessionId: parsed.sessionId, actionIds: actions.map((memory) => memory.id) },
  };
}
