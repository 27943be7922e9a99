import { parseInput } from '../../utils/validate.js';
import { type ReflectCheck, reflectCheckSchema } from '../procedure-inputs.js';
import type { LibraryContext } from './library-context.js';

/** `procedures.shouldReflect`: learning is on, enough tools ran, and the task did not fail. */
export function shouldReflect(ctx: LibraryContext, task: ReflectCheck): boolean {
  const parsed = parseInput(reflectCheckSchema, task, 'procedures.shouldReflect', 'task');
  const count = typeof parsed.toolCalls === 'number' ? parsed.toolCalls : parsed.toolCalls.length;
  const failed = (parsed.error !== undefined && parsed.error !== null) || parsed.success === false;
  return ctx.options.enabled && count >= ctx.options.minToolCalls && !failed;
}
