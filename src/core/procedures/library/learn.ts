import { scopeForWrite } from '../../search/scope-boundary.js';
import type { Scope } from '../../spec/memory.js';
import { parseInput } from '../../utils/validate.js';
import {
  type LearnResult,
  type ParsedTaskTrace,
  type ProcedureScopeOptions,
  scopeOptionsSchema,
  type TaskTrace,
  taskTraceSchema,
} from '../procedure-inputs.js';
import { deterministicDraft, reflectOnTask, transcriptOf, withRequestTrigger } from '../procedure-learning.js';
import { commitDraft } from './commit-draft.js';
import type { LibraryContext } from './library-context.js';
import { shouldReflect } from './should-reflect.js';

/** Keep a task whose reflection failed as an episode memory, and say so (`procedure:failed`). */
async function keepTaskAsEpisode(
  ctx: LibraryContext,
  task: ParsedTaskTrace,
  reason: string,
  scope: Scope | undefined,
): Promise<void> {
  const { engine } = ctx;
  engine.logger.log('warn', `procedure reflection failed, no procedure written: ${reason}`);
  const stored = await ctx.settings.retain.retain({
    content: transcriptOf(task),
    ...(scope && scope !== engine.scope ? { scope } : {}),
    kind: 'experience',
    category: 'events',
    metadata: { episode: true, reason: `procedure reflection failed: ${reason}`, procedureReflection: true },
  });
  engine.emit('procedure:failed', { reason, input: task, episodeId: stored.ids[0] ?? null });
}

/** The reflection itself, in the background: a model's draft, or the tool calls that succeeded. */
async function learnInBackground(ctx: LibraryContext, task: ParsedTaskTrace, scope: Scope | undefined): Promise<void> {
  const reflector = ctx.model();
  if (reflector) {
    const reflection = await reflectOnTask(reflector, task);
    if (!reflection.ok) return keepTaskAsEpisode(ctx, task, reflection.error, scope);
    return commitDraft(ctx, withRequestTrigger(reflection.draft, task.request), 'reflection', scope);
  }
  const { draft, failed } = deterministicDraft(task);
  if (draft.steps.length === 0) return keepTaskAsEpisode(ctx, task, 'every tool call failed: no step to keep', scope);
  await commitDraft(ctx, withRequestTrigger(draft, task.request), 'reflection', scope, { failed });
}

/** `procedures.learn`: queue a reflection on a finished task worth one, and answer at once. */
export async function learnProcedure(
  ctx: LibraryContext,
  task: TaskTrace,
  learnOptions?: ProcedureScopeOptions,
): Promise<LearnResult> {
  const { engine, options } = ctx;
  const parsed = parseInput(taskTraceSchema, task, 'procedures.learn', 'task');
  const given = parseInput(scopeOptionsSchema, learnOptions ?? {}, 'procedures.learn', 'options');
  // A per-call scope narrows the client's (a door serving many users passes the caller's), never widens it.
  const scope = given.scope
    ? scopeForWrite(engine.scope, given.scope, 'options.scope', 'procedures.learn')
    : engine.scope;
  engine.assertOpen('procedures.learn');
  if (!options.enabled)
    return { scheduled: false, reason: 'procedure learning is disabled (procedures.enabled: false)' };
  if (!shouldReflect(ctx, parsed)) {
    const reason =
      parsed.toolCalls.length < options.minToolCalls
        ? `${parsed.toolCalls.length} tool call(s); reflection needs at least ${options.minToolCalls}`
        : 'the task failed';
    engine.logger.log('debug', `no reflection: ${reason}`);
    return { scheduled: false, reason };
  }
  engine.background('learnProcedure', () => learnInBackground(ctx, parsed, scope), parsed);
  return { scheduled: true, reason: null };
}
