/** backup (and backup --list) and restore, over the client's backup() and restore(). */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { BackupCounts } from '../core/backup/index.js';
import type { Scope } from '../core/spec/memory.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { describeScope, formatBytes, formatTable, fullValuesWidth } from './cli-format.js';
import { nonEmpty } from './cli-options.js';
import { createPhasedProgress, createProgress } from './cli-progress.js';
import { oldFlag, renamedFlags } from './cli-renamed-flags.js';

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

/** The scope column: `whole store`, `userId=sam`, or `unreadable` when the manifest could not be read. */
function scopeCell(backup: { scope: Scope | null; problem: string | null }): string {
  if (backup.problem !== null) return 'unreadable';
  return backup.scope === null ? 'whole store' : describeScope(backup.scope).replace(/^the scope /, '');
}

async function printList(context: CliContext): Promise<void> {
  const directory = backupDirectory(context);
  // Through a client of the run's scope: a scoped run lists its own scope's backups only.
  const backups = await context.backupsClient().listBackups();
  const scope = context.scope ?? null;
  if (context.json) return context.printJson({ directory, scope, backups });
  if (backups.length === 0) {
    context.print(`No backups${scope ? ` of ${describeScope(scope)}` : ''} in ${directory}.`);
    return;
  }
  const rows = backups.map((backup) => [
    backup.createdAt.replace('T', ' ').slice(0, 19),
    backup.name,
    scopeCell(backup),
    formatBytes(backup.bytes),
    backup.path,
  ]);
  const columns = [
    { header: 'created (UTC)' },
    { header: 'name' },
    { header: 'scope' },
    { header: 'size', align: 'right' as const },
    { header: 'path' },
  ];
  // Piped, a path is whole: a script reading the list gets a path it can open.
  context.print(formatTable(columns, rows, fullValuesWidth(context.stdout)).lines.join('\n'));
  for (const backup of backups) {
    if (backup.problem !== null) context.note(`note: ${backup.path} cannot be read: ${backup.problem}`);
  }
  if (scope) context.note(`note: only the backups of ${describeScope(scope)} are listed.`);
}

/** `--user sam --agent a`: the flags that select `scope` on the command line. */
function scopeFlags(scope: Scope): string {
  const flags: string[] = [];
  const quote = (value: string) => (/^[\w.@:-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`);
  if (scope.userId !== undefined) flags.push(`--user ${quote(scope.userId)}`);
  if (scope.agentId !== undefined) flags.push(`--agent ${quote(scope.agentId)}`);
  if (scope.namespace !== undefined) flags.push(`--namespace ${quote(scope.namespace)}`);
  return flags.join(' ');
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
      // A large store takes seconds: a bar on a terminal, as export draws.
      const progress = createProgress(context.stderr, 'backing up');
      let info: Awaited<ReturnType<typeof client.backup>>;
      try {
        info = await client.backup(name, { onProgress: (done, total) => progress.update(done, total) });
      } finally {
        progress.finish();
      }
      const scope = context.scope ?? null;
      if (context.json) return context.printJson({ ...info, scope });
      context.print(
        `Backed up ${describeCounts(info.counts)} of ${describeScope(scope)} to ${info.path} (${formatBytes(info.bytes)}).`,
      );
      if (scope) {
        context.note(
          `note: this backup holds ${describeScope(scope)} only: \`memoir restore\` puts it back with the same scope flags, and \`memoir doctor --restore-backup\` never uses it for the whole store.`,
        );
      }
    });

  program
    .command('restore')
    .description('Replace the memories with those of a backup; the current data is backed up first.')
    .argument('<file>', 'the backup archive (.tar.gz) to restore; `memoir backup --list` shows them')
    .option(
      '--confirm',
      'go ahead: every memory and record (of the scope, with --user/--agent/--namespace) is replaced',
    )
    .addOption(oldFlag('-y, --yes', '--confirm'))
    .action(async (file: string, given: { confirm?: boolean; yes?: boolean }) => {
      const flags = renamedFlags(given, [{ from: '--yes', to: '--confirm' }], {
        command: 'restore',
        note: (text) => context.note(text),
      });
      if (!flags.confirm) {
        // The command to run keeps the scope flags given: without them it would replace every scope.
        const scoped = context.scope ? `${scopeFlags(context.scope)} ` : '';
        throw new CliUsageError(
          `restore replaces every memory and record${context.scope ? ` of ${describeScope(context.scope)}` : ''} with the backup’s and needs --confirm to go ahead`,
          `Run \`memoir ${scoped}restore ${file} --confirm\`; the current data is backed up first (an auto-before-restore backup).`,
        );
      }
      const path = resolve(file);
      // An unscoped restore replaces the whole store: a backup of one scope would leave only that scope.
      const scope = context.scope;
      if (!scope) {
        const described = await context.backupsClient().inspectBackup(path);
        if (described.scope !== null) {
          throw new CliUsageError(
            `${path} covers only ${describeScope(described.scope)}: restoring it over the whole store would delete every other scope's memories, so nothing was changed`,
            `Restore it into its own scope: \`memoir ${scopeFlags(described.scope)} restore ${file} --confirm\` replaces that scope's memories only.`,
            { code: 'SCOPED_BACKUP' },
          );
        }
      }
      // Restored embeddings are kept when they come from the embedder the store is opened with: the configured one.
      const client = await context.client('vectors');
      // Checking the archive, backing up what it replaces and writing it: a bar for each on a terminal.
      const progress = createPhasedProgress(context.stderr);
      let report: Awaited<ReturnType<typeof client.restore>>;
      try {
        report = await client.restore(path, {
          confirm: true,
          onProgress: (done, total, phase) => progress.update(phase, done, total),
        });
      } finally {
        progress.finish();
      }
      if (context.json) return context.printJson({ file: path, ...report, scope: scope ?? null });
      context.print(
        `Restored ${describeCounts(report.restored)} into ${describeScope(scope)} from ${path} (backup "${report.backup.name}" of ${report.backup.createdAt}).`,
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
