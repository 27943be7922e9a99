/** cleanup and consolidate: the retention and deduplication policies, a dry run unless --confirm. */
import type { Command } from 'commander';
import type { MemoryClient } from '../core/client/memory-client.js';
import type { Memory } from '../core/spec/memory.js';
import type { CliContext } from './cli-context.js';
import { describeScope, formatBytes, formatMemoryTable } from './cli-format.js';
import { unitInterval } from './cli-options.js';

interface ConfirmFlags {
  confirm?: boolean;
}

interface ConsolidateFlags extends ConfirmFlags {
  threshold?: number;
  category?: string;
}

/** The memories a dry run would delete, read through the run's scoped client. */
async function memoriesOf(client: MemoryClient, ids: readonly string[]): Promise<Memory[]> {
  const found = await Promise.all(ids.map((id) => client.get(id).catch(() => undefined)));
  return found.filter((memory): memory is Memory => memory !== undefined);
}

/** "… of the scope userId=bob" for a scoped run, nothing for the whole store. */
function inScope(context: CliContext): string {
  return context.scope ? ` of ${describeScope(context.scope)}` : '';
}

/** The scoped command line that goes ahead, e.g. `memoir --user bob cleanup --confirm`. */
function confirmCall(context: CliContext, command: string): string {
  const scope = context.scope;
  const flags = [
    scope?.userId === undefined ? '' : ` --user ${scope.userId}`,
    scope?.agentId === undefined ? '' : ` --agent ${scope.agentId}`,
    scope?.namespace === undefined ? '' : ` --namespace ${scope.namespace}`,
  ].join('');
  return `memoir${flags} ${command} --confirm`;
}

async function printDryRun(context: CliContext, client: MemoryClient, ids: readonly string[], heading: string) {
  context.print(heading);
  if (ids.length > 0) context.print(formatMemoryTable(await memoriesOf(client, ids), context.width));
}

async function runCleanup(context: CliContext, flags: ConfirmFlags): Promise<void> {
  const client = await context.client('records');
  const dryRun = flags.confirm !== true;
  const result = await client.cleanup({ dryRun });
  const days = context.config.retentionDays;
  if (context.json) return context.printJson({ ...result, retentionDays: days, scope: context.scope ?? null });
  const count = `${result.deleted} ${result.deleted === 1 ? 'memory' : 'memories'}`;
  if (!dryRun) {
    context.print(
      `Deleted ${count}${inScope(context)} not learned or used for ${days} days (~${formatBytes(result.bytesFreed)} freed).`,
    );
    if (result.deleted > 0) context.note('A backup was made first: `memoir backup --list` shows it.');
    return;
  }
  await printDryRun(
    context,
    client,
    result.ids,
    `Dry run: ${count}${inScope(context)} not learned or used for ${days} days would be deleted (~${formatBytes(result.bytesFreed)}).`,
  );
  if (result.deleted > 0) context.note(`hint: Run \`${confirmCall(context, 'cleanup')}\` to delete them.`);
}

async function runConsolidate(context: CliContext, flags: ConsolidateFlags): Promise<void> {
  const client = await context.client('records');
  const dryRun = flags.confirm !== true;
  const result = await client.consolidate({
    dryRun,
    ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }),
    ...(flags.category === undefined ? {} : { category: flags.category }),
  });
  if (context.json) return context.printJson({ ...result, scope: context.scope ?? null });
  const count = `${result.deleted} near-duplicate${result.deleted === 1 ? '' : 's'}`;
  const clusters = `${result.clusters} cluster${result.clusters === 1 ? '' : 's'}`;
  if (!dryRun) {
    context.print(`Deleted ${count}${inScope(context)} in ${clusters}; kept ${result.kept.join(', ') || 'nothing'}.`);
    return;
  }
  await printDryRun(
    context,
    client,
    result.ids,
    `Dry run: ${count}${inScope(context)} in ${clusters} would be deleted, keeping ${result.kept.join(', ') || 'every memory'}.`,
  );
  if (result.deleted > 0) context.note(`hint: Run \`${confirmCall(context, 'consolidate')}\` to delete them.`);
}

/** Add cleanup and consolidate. */
export function registerMaintenanceCommands(program: Command, context: CliContext): void {
  program
    .command('cleanup')
    .description(
      'Retention: list the memories past --retention-days (default 30) that may expire — by default only auto-captured tool calls; bookmarked and manual_save ones never. A dry run unless --confirm, which backs up first and deletes them.',
    )
    .option('--confirm', 'delete them (a backup is made first); without it nothing changes')
    .action((flags: ConfirmFlags) => runCleanup(context, flags));
  program
    .command('consolidate')
    .description(
      'Deduplication: list the near-duplicates (cosine >= --threshold, default 0.95) one memory of each cluster would be kept of; bookmarked and manual_save ones are never deleted. A dry run unless --confirm.',
    )
    .option('--threshold <similarity>', 'least cosine similarity of duplicates, 0 to 1 (default 0.95)', unitInterval)
    .option('--category <name>', 'only memories of this category, e.g. screen')
    .option('--confirm', 'delete the duplicates; without it nothing changes')
    .action((flags: ConsolidateFlags) => runConsolidate(context, flags));
}
