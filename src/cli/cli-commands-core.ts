/** core show|append|replace|insert: the core block kept in the agent's context every turn (seed 004). */
import { text as readStream } from 'node:stream/consumers';
import type { Command } from 'commander';
import type { MemoryClient } from '../core/client/memory-client.js';
import type { CoreBlockState } from '../core/core-block/core-block-api.js';
import { ValidationError } from '../core/spec/errors.js';
import type { CliContext } from './cli-context.js';
import { integer, nonEmpty } from './cli-options.js';
import { withWorkspace } from './cli-workspace.js';

interface CoreFlags {
  workspace?: string;
}

// The library names the parts of an edit `edit.find`, `edit.with`…; the user typed arguments.
const CLI_FIELDS: Record<string, string> = {
  text: '<text>',
  'edit.find': '<find>',
  'edit.with': '<with>',
  'edit.text': '<text>',
  'edit.line': '--line',
};

/** The block as a user reads it: its size against the limit, then the text. */
function render(state: CoreBlockState): string {
  const size = `${state.tokens} of ${state.limit} tokens`;
  return state.text.trim() === ''
    ? `The core block is empty (${size}).`
    : `Core block (${size}):\n${state.text.trimEnd()}`;
}

/** `<text...>` as one string; a lone "-" reads it from stdin. */
async function textOf(context: CliContext, words: string[]): Promise<string> {
  return words.length === 1 && words[0] === '-' ? readStream(context.stdin) : words.join(' ');
}

/** Register `core` and its subcommands. */
export function registerCoreCommands(program: Command, context: CliContext): void {
  // Each subcommand runs on the scoped client (--user, --agent, --namespace), or on the
  // workspace's memory.md with --workspace.
  async function run(
    command: string,
    flags: CoreFlags,
    work: (client: MemoryClient) => Promise<CoreBlockState>,
  ): Promise<void> {
    let state: CoreBlockState;
    try {
      state =
        flags.workspace === undefined
          ? await work(await context.client('records'))
          : await withWorkspace(context, flags.workspace, work);
    } catch (error) {
      if (!ValidationError.isInstance(error)) throw error;
      const issues = error.issues.map((issue) => ({ ...issue, field: CLI_FIELDS[issue.field] ?? issue.field }));
      throw new ValidationError(issues, {
        component: `core ${command}`,
        cause: error,
        ...(error.suggestion ? { suggestion: error.suggestion } : {}),
      });
    }
    if (context.json) return context.printJson(state);
    context.print(render(state));
  }

  const workspaceOption = [
    '--workspace <dir>',
    'the core block of this Markdown workspace (its memory.md) instead of the store’s',
  ] as const;

  const core = program
    .command('core')
    .description(
      'Show or edit the core block: a small set of durable facts and preferences kept in the agent’s context every turn ' +
        '(memory.md in a workspace; one per scope in the store). An edit past its token limit is refused.',
    );

  core
    .command('show')
    .description('Print the core block, with its size and token limit.')
    .option(...workspaceOption, nonEmpty)
    .action((flags: CoreFlags) => run('show', flags, (client) => client.core.get()));

  core
    .command('append')
    .description('Add text at the end of the core block, on its own line.')
    .argument('<text...>', 'the text; several words are joined with spaces; "-" reads it from stdin')
    .option(...workspaceOption, nonEmpty)
    .action(async (words: string[], flags: CoreFlags) => {
      const text = await textOf(context, words);
      await run('append', flags, (client) => client.core.append(text));
    });

  core
    .command('replace')
    .description(
      'Replace the one occurrence of <find> with <with> ("" removes it); refused when <find> is missing or repeated.',
    )
    .argument('<find>', 'the exact text to replace; it must occur once')
    .argument('<with>', 'the text that replaces it')
    .option(...workspaceOption, nonEmpty)
    .action((find: string, replacement: string, flags: CoreFlags) =>
      run('replace', flags, (client) => client.core.replace({ find, with: replacement })),
    );

  core
    .command('insert')
    .description('Insert text before a 0-based line of the core block (past the end appends).')
    .requiredOption('--line <n>', 'the 0-based line it goes before', integer(0))
    .argument('<text...>', 'the text; several words are joined with spaces; "-" reads it from stdin')
    .option(...workspaceOption, nonEmpty)
    .action(async (words: string[], flags: CoreFlags & { line: number }) => {
      const text = await textOf(context, words);
      await run('insert', flags, (client) => client.core.insert({ text, line: flags.line }));
    });
}
