/** backup (and backup --list) and restore, over the client's backup() and restore(). */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { BackupCounts } from '../core/lifecycle/backup/index.js';
import { listBackups } from '../core/lifecycle/backup/index.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { formatBytes, formatTable } from './cli-format.js';
import { nonEmpty } from './cli-options.js';

/** Where the CLI's client keeps backups: `<home>/backups`. */
export function backupDirectory(context: CliContext): string {
  return join(context.config.home, 'backups');
}

/** "12 memories, 3 sessions and 1 entity": the non-zero counts of a backup or restore. */
export function describeCounts(counts: BackupCounts): string {
  const words: Record<keyof BackupCounts, [string, string]> = {
    memories: ['memory', 'memories'],
    opinions: ['opinion', 'opinions'],
    procedures: ['procedure', 'procedures'],
    sessions: ['session', 'sessions'],
    entities: ['entity', 'entities'],
  };
  const parts = (Object.keys(words) as Array<keyof BackupCounts>)
    .filter((key) => key === 'memories' || counts[key] > 0)
    .map((key) => `${counts[key]} ${counts[key] === 1 ? words[key][0] : words[key][1]}`);
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

async function printList(context: CliContext): Promise<void> {
  const directory = backupDirectory(context);
  const backups = await listBackups(directory);
  if (context.json) return context.printJson({ directory, backups });
  if (backups.length === 0) {
    context.print(`No backups in ${directory}.`);
    return;
  }
  const rows = backups.map((backup) => [
    backup.createdAt.replace('T', ' ').slice(0, 19),
    backup.name,
    formatBytes(backup.bytes),
    backup.path,
  ]);
  const columns = [
    { header: 'created (UTC)' },
    { header: 'name' },
    { header: 'size', align: 'right' as const },
    { header: 'path' },
  ];
  context.print(formatTable(columns, rows, context.width).lines.join('\n'));
}

/** Add backup and restore. */
export function registerBackupCommands(program: Command, context: CliContext): void {
  program
    .command('backup')
    .description('Write a backup (tar.gz with checksums) of the memories into <home>/backups, or list the backups.')
    .argument('[name]', 'a name for the backup (default "backup")', nonEmpty)
    .option('--list', 'list the backups, newest first, instead of making one')
    .action(async (name: string | undefined, flags: { list?: boolean }) => {
      if (flags.list) {
        if (name !== undefined) throw new CliUsageError('--list takes no name', 'Run `memoir backup --list` alone.');
        return printList(context);
      }
      // A backup copies records and vectors as they are: it works whatever embedder is configured.
      const client = await context.client('records');
      const info = await client.backup(name);
      if (context.json) return context.printJson(info);
      context.print(`Backed up ${describeCounts(info.counts)} to ${info.path} (${formatBytes(info.bytes)}).`);
    });

  program
    .command('restore')
    .description('Replace the memories with those of a backup; the current data is backed up first.')
    .argument('<file>', 'the backup archive (.tar.gz) to restore; `memoir backup --list` shows them')
    .option('-y, --yes', 'confirm: every memory and record (of the scope, with --user/--agent/--namespace) is replaced')
    .action(async (file: string, flags: { yes?: boolean }) => {
      if (!flags.yes) {
        throw new CliUsageError(
          'restore replaces every memory and record with the backup’s and needs --yes to go ahead',
          `Run \`memoir restore ${file} --yes\`; the current data is backed up first (an auto-before-restore backup).`,
        );
      }
      // Restored embeddings are kept when they come from the embedder the store is opened with: the configured one.
      const client = await context.client('vectors');
      const path = resolve(file);
      const report = await client.restore(path, { confirm: true });
      if (context.json) return context.printJson({ file: path, ...report });
      context.print(
        `Restored ${describeCounts(report.restored)} from ${path} (backup "${report.backup.name}" of ${report.backup.createdAt}).`,
      );
      context.note(
        'note: the data it replaced was backed up first; `memoir backup --list` shows it (auto-before-restore).',
      );
      if (report.skippedEmbeddings > 0) {
        context.note(
          `note: ${report.skippedEmbeddings} embeddings came from another embedder and were left out.\nhint: Run \`memoir reindex\` so those memories are found by meaning again.`,
        );
      }
    });
}
