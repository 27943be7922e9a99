/** history and correct: the versions of a fact, and a new version that supersedes an old one. */
import { text as readStream } from 'node:stream/consumers';
import type { Command } from 'commander';
import type { MemoryInput, MemoryKind } from '../core/spec/memory.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { fullValuesWidth } from './cli-format.js';
import { formatHistory } from './cli-format-versions.js';
import { integer, kind, nonEmpty, repeatable, time, unitInterval } from './cli-options.js';
import { withWorkspace } from './cli-workspace.js';

interface CorrectFlags {
  kind?: MemoryKind;
  category?: string;
  entity?: string[];
  importance?: number;
  occurredAt?: string;
  sourceFile?: string;
  sourceLine?: number;
}

/** Register `history` and `correct`. */
export function registerVersionCommands(program: Command, context: CliContext): void {
  program
    .command('history')
    .description(
      'Show every version of the fact a memory belongs to, oldest first: what it replaced and what replaced it, with dates and reasons.',
    )
    .argument('<id>', 'the id of any version')
    .option('--workspace <dir>', 'read the versions from this Markdown workspace’s index', nonEmpty)
    .action(async (id: string, flags: { workspace?: string }) => {
      const history =
        flags.workspace === undefined
          ? await (await context.client('records')).history(id)
          : await withWorkspace(context, flags.workspace, (client) => client.history(id));
      if (context.json) return context.printJson(history);
      // Piped, contents and reasons are whole: a script or a search reads the real value.
      context.print(formatHistory(history, fullValuesWidth(context.stdout)));
    });

  program
    .command('correct')
    .description(
      'Store the corrected text as a new version of a memory, which it supersedes (the old one is kept as history). ' +
        'Kind, category and entities default to the old memory’s.',
    )
    .argument('<id>', 'the memory to correct')
    .argument('<text...>', 'the corrected text; several words are joined with spaces; "-" reads it from stdin')
    .option('--kind <kind>', 'world, experience, opinion or observation (default: the old memory’s)', kind)
    .option('--category <name>', 'topic (default: the old memory’s)', nonEmpty)
    .option('--entity <name>', 'an entity it mentions (repeatable; default: the old memory’s)', repeatable(nonEmpty))
    .option('--importance <0..1>', 'how much it matters (default 0.5)', unitInterval)
    .option(
      '--occurred-at <time>',
      'when the new version became true: 2025-12-01, an ISO date-time, or 3d (ago)',
      time(context.now),
    )
    .option('--source-file <path>', 'where the correction came from, for citations', nonEmpty)
    .option('--source-line <n>', 'line in --source-file', integer(1))
    .action(async (id: string, words: string[], flags: CorrectFlags) => {
      if (flags.sourceLine !== undefined && flags.sourceFile === undefined) {
        throw new CliUsageError(
          '--source-line needs --source-file',
          'Pass both, e.g. --source-file notes.md --source-line 12.',
        );
      }
      const content = words.length === 1 && words[0] === '-' ? await readStream(context.stdin) : words.join(' ');
      const input: MemoryInput = {
        content,
        ...(flags.kind === undefined ? {} : { kind: flags.kind }),
        ...(flags.category === undefined ? {} : { category: flags.category }),
        ...(flags.entity === undefined ? {} : { entities: flags.entity }),
        ...(flags.importance === undefined ? {} : { importance: flags.importance }),
        ...(flags.occurredAt === undefined ? {} : { occurredAt: flags.occurredAt }),
        ...(flags.sourceFile === undefined ? {} : { source: { file: flags.sourceFile, line: flags.sourceLine } }),
      };
      const client = await context.client('vectors');
      const result = await client.correct(id, input);
      if (context.json) return context.printJson(result);
      context.print(
        `Corrected ${id}: the new version is ${result.id}.\n\n${formatHistory(result.history, fullValuesWidth(context.stdout))}`,
      );
    });
}
