/** index --workspace <dir>: the derived index of a Markdown workspace. */
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { nonEmpty } from './cli-options.js';
import { withWorkspace } from './cli-workspace.js';

interface IndexFlags {
  workspace: string;
  rebuild?: boolean;
}

/** Register `index`. */
export function registerWorkspaceCommands(program: Command, context: CliContext): void {
  program
    .command('index')
    .description(
      'Bring the index of a Markdown workspace (memory.md, memory/YYYY-MM-DD.md, bank/) up to date: only changed files are re-read.',
    )
    .requiredOption('--workspace <dir>', 'the workspace directory; its index is <dir>/.memory/index.sqlite', nonEmpty)
    .option('--rebuild', 're-read every file, not only the changed ones')
    .action(async (flags: IndexFlags) => {
      await withWorkspace(
        context,
        flags.workspace,
        async (client, report) => {
          if (context.json) return context.printJson({ root: client.workspace.root, ...report });
          const { byKind } = await client.stats();
          const total = Object.values(byKind).reduce((sum, count) => sum + count, 0);
          context.print(
            `${report.files} files, ${report.changedFiles.length} re-read, ${report.removedFiles.length} removed; ` +
              `${report.indexed} items written, ${report.removed} removed, ${total} in the index; ` +
              `${report.warnings.length} warning(s).`,
          );
        },
        { rebuild: flags.rebuild ?? false },
      );
    });
}
