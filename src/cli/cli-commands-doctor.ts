/** doctor: check the store file, and repair it by salvage or from a backup. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { checkSqliteFile, type SqliteFileCheck } from '../adapters/sqlite/index.js';
import type { BackupCounts } from '../core/backup/index.js';
import type { Scope } from '../core/spec/memory.js';
import { backupDirectory, describeCounts } from './cli-commands-backup.js';
import { type CliContext, storeLocation } from './cli-context.js';
import {
  type BackupSearch,
  newestVerifyingBackup,
  repairBySalvage,
  repairFromBackup,
  type VerifiedBackup,
} from './cli-doctor.js';
import { CliError, CliUsageError } from './cli-errors.js';
import { describeScope, formatBytes } from './cli-format.js';

interface DoctorFlags {
  repair?: boolean;
  restoreBackup?: string | true;
}

/** The `memoir doctor …` command line that reaches the same file. */
function doctorCall(context: CliContext, file: string | undefined): string {
  const home = context.globals.home === undefined ? '' : ` --home ${context.globals.home}`;
  return `memoir doctor${file === undefined ? '' : ` ${file}`}${home}`;
}

/** What a scoped run may count: its own scope's records, through its scoped client; nothing of the file's other scopes. */
interface ScopedCounts {
  scope: Scope;
  counts: BackupCounts;
}

function summary(check: SqliteFileCheck, scoped?: ScopedCounts): string {
  if (check.status === 'missing') return `${check.path}: missing — no store here yet; the first write creates one`;
  const facts = [`${formatBytes(check.bytes)} (write-ahead log ${formatBytes(check.walBytes)})`];
  if (check.schemaVersion !== null) facts.push(`schema ${check.schemaVersion}`);
  facts.push(`integrity check ${check.integrity}`);
  // Only files from before schema 6 keep a full-text index to check.
  if (check.fullText !== 'skipped') facts.push(`full-text check ${check.fullText}`);
  if (check.readOnly) facts.push('read-only');
  const counts = check.counts;
  const held = scoped
    ? ` — ${describeScope(scoped.scope)}: ${describeCounts(scoped.counts)}`
    : counts
      ? ` — ${describeCounts(counts)}, ${counts.embeddings} embeddings`
      : '';
  return `${check.path}: ${check.status}${held}\n  ${facts.join(', ')}`;
}

/** "samonly (userId=sam)", … : the scoped backups a repair leaves out. */
function scopedNames(found: BackupSearch): string {
  return found.scoped
    .map((each) => `"${each.name}" (${describeScope(each.scope).replace(/^the scope /, '')})`)
    .join(', ');
}

function backupLine(directory: string, found: BackupSearch) {
  if (found.count === 0) return `Backups: none in ${directory}.`;
  const newest = found.backup
    ? `newest that verifies: "${found.backup.name}" of ${found.backup.createdAt} (${describeCounts(found.backup.counts)}), ${found.backup.path}`
    : 'no backup of the whole store verifies';
  const skipped = found.rejected.map((each) => `\n  - ${each.path} does not verify: ${each.reason}`).join('');
  const scoped =
    found.scoped.length > 0
      ? `\n  - left out, as each holds one scope only and cannot restore the whole store: ${scopedNames(found)}`
      : '';
  return `Backups: ${found.count} in ${directory}; ${newest}.${skipped}${scoped}`;
}

/** The run's scope's counts, read through its scoped client once the file checked out. */
async function scopedCounts(context: CliContext, check: SqliteFileCheck): Promise<ScopedCounts | undefined> {
  const scope = context.scope;
  if (!scope || check.status !== 'ok') return undefined;
  const stats = await (await context.client('records')).stats();
  const { memories, opinions, procedures, sessions, entities } = stats;
  return { scope, counts: { memories, opinions, procedures, sessions, entities } };
}

/** Every setting, its value and where it came from: default, a file, a variable, a flag. */
function settingLines(context: CliContext): string[] {
  return ['Settings:', ...context.settings.map((each) => `  ${each.text}`)];
}

/**
 * A LanceDB store has no file checks of doctor's (those are SQLite's): say what it holds,
 * through the run's client, and every setting with its source.
 */
async function diagnoseLance(context: CliContext) {
  const path = context.storeLocation;
  const stats = await (await context.client('records')).stats();
  const { memories, opinions, procedures, sessions, entities } = stats;
  const counts = { memories, opinions, procedures, sessions, entities };
  const scope = context.scope;
  const settings = context.settings.map(({ setting, value, source }) => ({ setting, value, source }));
  if (context.json) {
    context.printJson({ store: 'lancedb', path, ...(scope ? { scope, scopeCounts: counts } : { counts }), settings });
    return;
  }
  const held = scope ? `${describeScope(scope)}: ${describeCounts(counts)}` : describeCounts(counts);
  context.print(`${path}: lancedb store — ${held}`);
  context.print('  the file checks and repairs of doctor are for SQLite; LanceDB keeps its own versions');
  for (const line of settingLines(context)) context.print(line);
}

async function diagnose(context: CliContext, path: string, file: string | undefined) {
  const checked = await checkSqliteFile(path);
  const scoped = await scopedCounts(context, checked);
  // A scoped run never counts another scope: the file's whole-store counts are left out,
  // also when the file is damaged and the scope cannot be counted.
  const check: SqliteFileCheck = context.scope ? { ...checked, counts: null } : checked;
  const directory = backupDirectory(context);
  const healthy = check.status === 'ok' || check.status === 'missing';
  // Reading every backup back costs time: only when a repair may need one.
  const backups = healthy ? null : await newestVerifyingBackup(context.backupsClient({ wholeStore: true }));
  const settings = context.settings.map(({ setting, value, source }) => ({ setting, value, source }));
  if (context.json) {
    context.printJson({
      ...check,
      ...(scoped ? { scope: scoped.scope, scopeCounts: scoped.counts } : {}),
      backups: backups && { directory, ...backups },
      settings,
    });
  } else {
    context.print(summary(check, scoped));
    for (const problem of check.problems) context.print(`  - ${problem}`);
    if (backups) context.print(backupLine(directory, backups));
    for (const line of settingLines(context)) context.print(line);
  }
  if (healthy || check.status === 'newer') {
    if (check.status === 'newer')
      throw new CliError(`${path} was made by a newer memoir`, 'Upgrade memoir to open it.');
    return;
  }
  const call = doctorCall(context, file);
  const fromBackup = backups?.backup
    ? `\`${call} --restore-backup\` to start again from "${backups.backup.name}" of ${backups.backup.createdAt}`
    : '';
  if (check.status === 'empty') {
    throw new CliError(
      `${path} is empty (0 bytes)`,
      fromBackup
        ? `Run ${fromBackup}; the empty file is moved aside, not deleted.`
        : 'No backup verifies; the next write starts a new, empty store there (with a warning).',
    );
  }
  throw new CliError(
    `${path} is ${check.status}`,
    `Run \`${call} --repair\` to move it aside and salvage every row that still reads into a new file${fromBackup ? `, or ${fromBackup}` : ''}. The damaged file is never deleted.`,
  );
}

async function salvage(context: CliContext, path: string, file: string | undefined) {
  const check = await checkSqliteFile(path);
  if (check.status === 'ok' || check.status === 'missing' || check.status === 'newer') {
    throw new CliError(
      `${path} is ${check.status}: there is nothing to salvage`,
      check.status === 'missing'
        ? `Run \`${doctorCall(context, file)} --restore-backup\` to start from the newest backup that verifies.`
        : 'Nothing was changed.',
    );
  }
  const outcome = await repairBySalvage(path, context.now());
  if (context.json) return context.printJson({ before: check, ...outcome });
  const { recovered } = outcome.salvage;
  context.print(`Moved the damaged file to ${outcome.movedTo}.`);
  context.print(
    `Salvaged ${describeCounts(recovered)} into a new ${path}; ${recovered.embeddings} of the memories kept their embedding.`,
  );
  const losses = [
    outcome.salvage.lostPages > 0 ? `${outcome.salvage.lostPages} pages could not be read` : '',
    outcome.salvage.orphanPages > 0
      ? `${outcome.salvage.orphanPages} pages were found cut off from their table and read by shape`
      : '',
    outcome.salvage.unreadableRows > 0 ? `${outcome.salvage.unreadableRows} rows did not read back` : '',
  ].filter(Boolean);
  if (losses.length > 0) context.print(`  ${losses.join('; ')}.`);
  context.print(summary(outcome.after));
  if (recovered.embeddings < recovered.memories) {
    context.note('hint: Run `memoir reindex` to embed the memories that lost their embedding.');
  }
  context.note(
    'hint: `memoir backup --list` shows the backups; `memoir restore <file> --confirm` replaces the salvaged data with one.',
  );
}

async function restoreFromBackup(context: CliContext, path: string, choice: string | true) {
  const check = await checkSqliteFile(path);
  const backups = context.backupsClient({ wholeStore: true });
  if (check.status === 'ok' || check.status === 'newer') {
    throw new CliError(
      `${path} is ${check.status}; doctor restores only over a damaged, empty or missing store, and nothing was changed`,
      'To replace the data with a backup anyway, run `memoir restore <file> --confirm` (it backs up the current data first).',
    );
  }
  let backup: VerifiedBackup;
  if (choice === true) {
    const found = await newestVerifyingBackup(backups);
    if (!found.backup) {
      const scoped = found.scoped.length > 0 ? `; left out as backups of one scope only: ${scopedNames(found)}` : '';
      throw new CliError(
        `no backup of the whole store in ${backupDirectory(context)} verifies${found.rejected.length > 0 ? ` (${found.rejected.length} tried)` : ''}${scoped}`,
        `A backup made with --user/--agent/--namespace holds that scope only and never restores the whole store. Pass a backup of the whole store: \`memoir doctor --restore-backup <file>\`, or run \`memoir doctor --repair\` to salvage the file instead.`,
      );
    }
    backup = found.backup;
  } else {
    backup = await backups.verifyBackup(resolve(choice));
    if (backup.scope !== null) {
      throw new CliUsageError(
        `${backup.path} covers only ${describeScope(backup.scope)}: restoring it as the whole store would lose every other scope's memories, so nothing was changed`,
        `Pass a backup of the whole store (\`memoir backup --list\` shows each backup's scope), or leave the archive out to take the newest one that verifies; \`memoir doctor --repair\` salvages the file instead.`,
        { code: 'SCOPED_BACKUP' },
      );
    }
  }
  // The damaged file is never opened: the backup's embeddings are kept when they come from the configured embedder.
  const outcome = await repairFromBackup(path, backup, {
    now: context.now(),
    embedder: context.configuredEmbedder(),
    logger: context.logger,
    adopt: (client) => context.adopt(client),
  });
  if (context.json) return context.printJson({ before: check, backup, ...outcome });
  if (outcome.movedTo) context.print(`Moved the damaged file to ${outcome.movedTo}.`);
  context.print(
    `Restored ${describeCounts(outcome.restored.restored)} from "${backup.name}" of ${backup.createdAt} (${backup.path}) into a new ${path}.`,
  );
  context.print(summary(outcome.after));
}

/** Add doctor. */
export function registerDoctorCommands(program: Command, context: CliContext): void {
  program
    .command('doctor')
    .description(
      'Check the store file for damage (integrity, full-text index, counts); --repair or --restore-backup fix it, keeping the damaged file.',
    )
    .argument(
      '[file]',
      'the SQLite file to check (default: <home>/memoir.sqlite; with --store lancedb, what the store holds)',
    )
    .option('--repair', 'move a damaged file aside and salvage every row that still reads into a new one')
    .option(
      '--restore-backup [archive]',
      'move a damaged file aside and restore a backup into a new one: this archive, or the newest in <home>/backups that verifies',
    )
    .action(async (file: string | undefined, flags: DoctorFlags) => {
      if (flags.repair && flags.restoreBackup !== undefined) {
        throw new CliUsageError(
          '--repair and --restore-backup are two ways to repair; pick one',
          '--repair keeps what the damaged file still holds; --restore-backup starts again from a backup.',
        );
      }
      const lance = file === undefined && context.config.store === 'lancedb';
      if (lance && (flags.repair || flags.restoreBackup !== undefined)) {
        throw new CliUsageError(
          `doctor ${flags.repair ? '--repair' : '--restore-backup'} repairs a SQLite file, and this run's store is lancedb (${context.storeLocation})`,
          'Name the SQLite file (`memoir doctor <file> --repair`), or run with --store sqlite; `memoir restore <file> --confirm` restores a backup into any store.',
          { code: 'NOT_SQLITE' },
        );
      }
      const path = file === undefined ? storeLocation(context.config.home, 'sqlite') : resolve(file);
      const scope = context.scope;
      if (scope && (flags.repair || flags.restoreBackup !== undefined)) {
        throw new CliUsageError(
          `doctor ${flags.repair ? '--repair' : '--restore-backup'} rebuilds the whole store file, every scope's memories, and this run is limited to ${describeScope(scope)}`,
          'Run it without --user, --agent and --namespace (and without MEMOIR_USER_ID, MEMOIR_AGENT_ID and MEMOIR_NAMESPACE).',
          { code: 'SCOPED_RUN' },
        );
      }
      if (flags.repair) return salvage(context, path, file);
      if (flags.restoreBackup !== undefined) return restoreFromBackup(context, path, flags.restoreBackup);
      return lance ? diagnoseLance(context) : diagnose(context, path, file);
    });
}
