/**
 * memoir procedures from-recording "<query>": how you did something on screen, steps drawn from
 * your indexed recordings (the library's `procedures.fromRecording`, MCP's
 * `memory_procedures_from_recording`). Its old name, `memoir recall-video`, still runs it with a
 * note on stderr.
 */
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { integer, nonEmpty } from './cli-options.js';
import { oldFlag, renamedFlags } from './cli-renamed-flags.js';
import { videoConfigured, videoOptionsFromEnv } from './cli-video.js';

const DESCRIPTION =
  'How you did something on screen: steps drawn from your indexed recordings (needs MEMORIES_AI_API_KEY; a vision model via MEMOIR_VISION_MODEL).';

interface FromRecordingFlags {
  k?: number;
  limit?: number;
  refresh?: boolean;
}

/**
 * Add `from-recording` to `memoir procedures`, and the hidden old name `memoir recall-video`.
 *
 * @param procedures - The `memoir procedures` command.
 * @param program - The `memoir` program, where the old name lives.
 * @param context - The CLI's context.
 */
export function registerFromRecordingCommands(procedures: Command, program: Command, context: CliContext): void {
  define(procedures.command('from-recording').description(DESCRIPTION), context, 'procedures from-recording');
  // The vocabulary's verbs (docs/vocabulary.md): the old command runs the new one, and says so.
  define(program.command('recall-video', { hidden: true }).description(DESCRIPTION), context, 'recall-video');
}

function define(command: Command, context: CliContext, name: string): void {
  command
    .argument('<query>', 'what you want to do, e.g. "add an SSH key on GitHub"', nonEmpty)
    .option('-k, --k <n>', 'most clips (default 3)', integer(1, 20))
    .addOption(oldFlag('--limit <n>', '--k', integer(1, 20)))
    .option('--refresh', 'search again even when a similar query is cached')
    .action(async (query: string, given: FromRecordingFlags) => {
      if (name === 'recall-video') {
        context.note(
          'note: memoir recall-video is now memoir procedures from-recording (recall-video still works for now).',
        );
      }
      const flags = renamedFlags(given, [{ from: '--limit', to: '--k' }], {
        command: name,
        note: (text) => context.note(text),
      });
      // Without a key there is no search, as at the other doors: steps cached earlier still
      // answer, and otherwise the error's hint names the variable to set.
      context.clientOptions = videoConfigured(context) ? { video: await videoOptionsFromEnv(context) } : {};
      const client = await context.client('vectors');
      const results = await client.procedures.fromRecording(query, {
        ...(flags.k ? { k: flags.k } : {}),
        ...(flags.refresh ? { refresh: true } : {}),
      });
      if (context.json) return context.printJson({ query, results });
      if (results.length === 0) return context.print('No recording matches.');
      // The seed's sentence, as memory_procedures_from_recording and recall give it, then where it was seen.
      const blocks = results.map((result) => {
        const span = result.recordedAt ? `, recorded ${result.recordedAt.start} – ${result.recordedAt.end}` : '';
        const steps = result.steps.map((step, i) => `  ${i + 1}) ${step}`).join('\n') || '  (no steps seen)';
        return [
          `${recordedWhen(result.recordedAt?.start ?? null)} (confidence ${result.confidence.toFixed(2)}${result.cached ? ', cached' : ''}): ${result.summary}`,
          steps,
          `  video: ${result.videoUrl || result.videoId} ${result.videoStartMs}–${result.videoEndMs} ms${span}`,
        ].join('\n');
      });
      context.print(blocks.join('\n\n'));
    });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "On Feb 10, 2026 at 14:30 UTC, the user:", the wording every door uses. */
function recordedWhen(start: string | null): string {
  if (!start) return 'In a recording (date unknown), the user';
  const date = new Date(start);
  const hm = `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return `On ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()} at ${hm} UTC, the user`;
}
