/**
 * `memoir procedures learn <file | ->`: learn a procedure from a finished task, given as a JSON
 * task trace (`{ request, toolCalls, narration, response }`, as `memory.procedures.learn` takes
 * it). The reflection runs with the configured model (`--model`, `MEMOIR_MODEL`); without one
 * the calls that succeeded become the steps. The command waits for it and says what was written.
 */
import { readFile } from 'node:fs/promises';
import { text as readStream } from 'node:stream/consumers';
import type { Command } from 'commander';
import type { ProcedureFailedEvent, ProcedureUpdatedEvent } from '../core/engine/events.js';
import { ValidationError } from '../core/spec/errors.js';
import type { Procedure } from '../core/spec/records.js';
import type { CliContext } from './cli-context.js';
import { nonEmpty } from './cli-options.js';

/** What the reflection did, as the events said. */
type Outcome =
  | { status: 'created' | 'updated'; procedure: Procedure; file: string }
  | { status: 'failed'; reason: string; episodeId: string | null }
  | { status: 'error'; reason: string };

async function readTrace(context: CliContext, file: string): Promise<unknown> {
  const text = file === '-' ? await readStream(context.stdin) : await readFile(file, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ValidationError(
      [{ field: 'file', message: `expected a JSON task trace (${(error as Error).message})` }],
      {
        component: 'procedures learn',
        suggestion:
          'Give a JSON object such as {"request":"…","toolCalls":[{"name":"…","input":{},"output":"…"}],"narration":"…","response":"…"}.',
      },
    );
  }
}

/** Add `memoir procedures learn` to the `procedures` command. */
export function registerProcedureLearnCommand(procedures: Command, context: CliContext): void {
  procedures
    .command('learn')
    .description(
      'Learn a procedure from a finished task: a JSON task trace {request, toolCalls, narration, response} in a file, or "-" for stdin. Waits for the reflection (with --model / MEMOIR_MODEL, the model writes it).',
    )
    .argument('<file>', 'the task trace as JSON; "-" reads it from stdin', nonEmpty)
    .action(async (file: string) => {
      const trace = await readTrace(context, file);
      const client = await context.client('vectors');
      const outcomes: Outcome[] = [];
      const created = (event: { procedure: Procedure; file: string }) =>
        void outcomes.push({ status: 'created', procedure: event.procedure, file: event.file });
      const updated = (event: ProcedureUpdatedEvent) =>
        void outcomes.push({ status: 'updated', procedure: event.procedure, file: event.file });
      const failed = (event: ProcedureFailedEvent) =>
        void outcomes.push({ status: 'failed', reason: event.reason, episodeId: event.episodeId });
      const errored = (event: { operation: string; error: Error }) => {
        if (event.operation === 'learnProcedure') outcomes.push({ status: 'error', reason: event.error.message });
      };
      client.on('procedure:created', created).on('procedure:updated', updated).on('procedure:failed', failed);
      client.on('error', errored);
      try {
        const result = await client.procedures.learn(trace as Parameters<typeof client.procedures.learn>[0]);
        if (result.scheduled) await client.flush();
        const outcome = outcomes[0];
        if (context.json) return context.printJson({ ...result, ...(outcome ? { outcome } : {}) });
        if (!result.scheduled) return context.print(`Not learned: ${result.reason}.`);
        if (!outcome) return context.print('Nothing was written.');
        if ('procedure' in outcome) {
          context.print(
            `${outcome.status === 'created' ? 'Created' : 'Updated'} procedure ${outcome.procedure.id}: ${outcome.file}`,
          );
          return;
        }
        context.print(`No procedure written: ${outcome.reason}.`);
      } finally {
        client.off('procedure:created', created).off('procedure:updated', updated).off('procedure:failed', failed);
        client.off('error', errored);
      }
    });
}
