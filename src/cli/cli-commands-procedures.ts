/** procedures list | show <slug> | find "<request>" | stale | learn <file>: the procedure files under <home>/procedures. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { NotFoundError } from '../core/spec/errors.js';
import type { Procedure } from '../core/spec/records.js';
import { registerFromRecordingCommands } from './cli-commands-from-recording.js';
import { registerProcedureLearnCommand } from './cli-commands-procedures-learn.js';
import type { CliContext } from './cli-context.js';
import { formatTable, safeText } from './cli-format.js';
import { integer, nonEmpty, unitInterval } from './cli-options.js';
import { oldFlag, renamedFlags } from './cli-renamed-flags.js';

const COLUMNS = [
  { header: 'id' },
  { header: 'used', align: 'right' as const },
  { header: 'last used' },
  { header: 'title' },
];

function rows(procedures: readonly Procedure[]): string[][] {
  return procedures.map((procedure) => [
    procedure.id,
    String(procedure.successCount),
    procedure.lastUsedAt?.slice(0, 10) ?? 'never',
    procedure.title,
  ]);
}

// Procedures need the configured embedder: their vectors are compared with the request's.
async function library(context: CliContext) {
  return (await context.client('vectors')).procedures;
}

async function printProcedures(context: CliContext, procedures: readonly Procedure[], empty: string): Promise<void> {
  const directory = (await library(context)).directory();
  if (context.json) return context.printJson({ directory, procedures });
  if (procedures.length === 0) return context.print(`${empty} (${directory}).`);
  context.print(formatTable(COLUMNS, rows(procedures), context.width).lines.join('\n'));
}

async function reportInvalid(context: CliContext): Promise<void> {
  if (context.json) return;
  for (const broken of await (await library(context)).invalidFiles()) {
    context.note(`warning: ${broken.file} is not a readable procedure and was skipped: ${broken.reason}`);
  }
}

/** Add `memoir procedures` and its subcommands. */
export function registerProcedureCommands(program: Command, context: CliContext): void {
  const procedures = program
    .command('procedures')
    .description('Procedures learned from finished tasks: Markdown files in <home>/procedures a person can edit.');

  procedures
    .command('list')
    .description('List the procedures of the scope, by id.')
    .action(async () => {
      await printProcedures(context, await (await library(context)).list(), 'No procedures');
      await reportInvalid(context);
    });

  procedures
    .command('show')
    .description('Print a procedure file as it is on disk.')
    .argument('<slug>', 'the file name without .md, as `memoir procedures list` shows it', nonEmpty)
    .action(async (slug: string) => {
      const api = await library(context);
      const procedure = await api.get(slug);
      if (!procedure) {
        throw new NotFoundError('procedure', slug, {
          component: 'procedures show',
          suggestion: '`memoir procedures list` shows the procedures and their ids.',
        });
      }
      const file = join(api.directory(), `${slug}.md`);
      if (context.json) return context.printJson({ file, procedure });
      context.stdout.write(safeText(await readFile(file, 'utf8')));
    });

  procedures
    .command('find')
    .description('The procedures closest to a request, as the agent would get them in its prompt.')
    .argument('<request...>', 'the request; several words are joined with spaces')
    .option('-k, --k <n>', 'most procedures (default: maxPerPrompt, 2)', integer(1, 100))
    .addOption(oldFlag('--top-k <n>', '--k', integer(1, 100)))
    .option('--threshold <0..1>', 'least similarity (default: similarityThreshold for the embedder)', unitInterval)
    .option('--prompt', 'print the "Relevant Procedures" prompt section instead of a table')
    .action(async (words: string[], given: { k?: number; topK?: number; threshold?: number; prompt?: boolean }) => {
      const flags = renamedFlags(given, [{ from: '--top-k', to: '--k' }], {
        command: 'procedures find',
        note: (text) => context.note(text),
      });
      const api = await library(context);
      const found = await api.findRelevant(words.join(' '), { k: flags.k, threshold: flags.threshold });
      if (context.json) return context.printJson({ request: words.join(' '), found });
      if (flags.prompt) return context.print(api.formatProcedures(found));
      if (found.length === 0) return context.print('No procedure is similar enough.');
      const table = found.map((entry) => [entry.procedure.id, entry.similarity.toFixed(2), entry.procedure.title]);
      const columns = [{ header: 'id' }, { header: 'similarity', align: 'right' as const }, { header: 'title' }];
      context.print(formatTable(columns, table, context.width).lines.join('\n'));
    });

  procedures
    .command('stale')
    .description('Procedures not used for a while (default: staleAfterDays, 90): candidates for review.')
    .option('--days <n>', 'unused for at least this many days', integer(1, 100_000))
    .action(async (flags: { days?: number }) => {
      const stale = await (await library(context)).stale(flags.days === undefined ? {} : { days: flags.days });
      await printProcedures(context, stale, 'No stale procedures');
    });

  registerProcedureLearnCommand(procedures, context);
  registerFromRecordingCommands(procedures, program, context);
}
