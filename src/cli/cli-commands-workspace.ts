/** index --workspace <dir>: the derived index of a Markdown workspace. */
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { nonEmpty, time } from './cli-options.js';
import { createActivity } from './cli-progress.js';
import { withWorkspace } from './cli-workspace.js';

interface IndexFlags {
  workspace: string;
  rebuild?: boolean;
}

interface ReflectFlags {
  workspace: string;
  since?: string;
}

/** Register `index` and `reflect`. */
export function registerWorkspaceCommands(program: Command, context: CliContext): void {
  program
    .command('index')
    .description(
      'Bring the index of a Markdown workspace (memory.md, memory/YYYY-MM-DD.md, bank/) up to date: only changed files are re-read.',
    )
    .requiredOption('--workspace <dir>', 'the workspace directory; its index is <dir>/.memory/index.sqlite', nonEmpty)
    .option('--rebuild', 're-read every file, not only the changed ones')
    .action(async (flags: IndexFlags) => {
      // Indexing a large workspace takes seconds and its size is not known ahead: elapsed time on a terminal.
      const activity = createActivity(context.stderr, `indexing ${flags.workspace}`);
      await withWorkspace(
        context,
        flags.workspace,
        async (client, report) => {
          activity.finish();
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
      ).finally(() => activity.finish());
    });

  program
    .command('reflect')
    .description(
      'Update entity pages and opinion confidence from recent facts, and propose lines for memory.md (proposals/memory.md).',
    )
    .requiredOption('--workspace <dir>', 'the workspace directory', nonEmpty)
    .option('--since <time>', 'reflect over memories since: 7d (default), last week, 2025-11-30, …', time(context.now))
    .action(async (flags: ReflectFlags) => {
      await withWorkspace(context, flags.workspace, async (client) => {
        const report = await client.reflect(flags.since === undefined ? {} : { since: flags.since });
        if (context.json) return context.printJson(report);
        const pages = report.entityPages.filter((page) => page.status === 'created' || page.status === 'updated');
        const lines = [
          `Since ${report.since.slice(0, 10)}: ${pages.length} entity page(s) written, ${report.opinions.length} opinion(s) moved, ${report.coreProposals.lines.length} line(s) proposed for memory.md.`,
          ...pages.map((page) => `  ${page.status} ${page.file}`),
          ...report.opinions.map(
            (change) => `  ${change.before} → ${change.after}  ${change.citation}  ${change.statement}`,
          ),
          ...(report.coreProposals.lines.length > 0 ? [`  proposals: ${report.coreProposals.file}`] : []),
          ...report.bankPages
            .filter((page) => page.status === 'created' || page.status === 'updated')
            .map((page) => `  ${page.status} ${page.file}`),
          ...report.retainSections.added.map(
            (added) => `  ## Retain inferred for ${added.file} (${added.bullets.length} bullet(s))`,
          ),
          ...report.retainSections.skipped.map((skipped) => `  skipped ${skipped.file}: ${skipped.reason}`),
        ];
        context.print(lines.join('\n'));
      });
    });
}
