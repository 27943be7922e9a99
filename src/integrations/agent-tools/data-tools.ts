/** The seed's data control: export, backup, restore, clear everything, and the usage dashboard. */
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { type BackupCounts, type MemoryClient, ValidationError } from '../../index.js';
import { defineAgentTool, requireConfirm } from './define-agent-tool.js';
import {
  BACKUPS_FOLDER,
  EXPORTS_FOLDER,
  fileInFolder,
  fileNameProblem,
  homeFolder,
  type TextSink,
  writeFileAtomically,
} from './home-files.js';
import { plural } from './tool-text.js';

function countsText(counts: BackupCounts): string {
  const parts = [plural(counts.memories, 'memory', 'memories')];
  if (counts.sessions > 0) parts.push(plural(counts.sessions, 'session', 'sessions'));
  if (counts.procedures > 0) parts.push(plural(counts.procedures, 'procedure', 'procedures'));
  if (counts.opinions > 0) parts.push(plural(counts.opinions, 'opinion', 'opinions'));
  if (counts.entities > 0) parts.push(plural(counts.entities, 'entity', 'entities'));
  return parts.join(', ');
}

/** Lines counted by record type while an export is written. */
type Counts = Record<string, number>;

/** Write the scoped client's export into the sink as JSON Lines or one JSON array, counting records by type. */
async function writeExport(client: MemoryClient, sink: TextSink, format: 'json' | 'jsonl'): Promise<Counts> {
  const counts: Counts = {};
  let first = true;
  if (format === 'json') await sink.write('[\n');
  for await (const line of client.export()) {
    const type = (JSON.parse(line) as { type?: unknown }).type;
    if (typeof type === 'string') counts[type] = (counts[type] ?? 0) + 1;
    await sink.write(format === 'json' ? `${first ? '' : ',\n'}${line}` : `${line}\n`);
    first = false;
  }
  if (format === 'json') await sink.write('\n]\n');
  return counts;
}

/** The export's file name: the name given, with the format's extension added unless it has it. */
function exportFileName(name: string, format: 'json' | 'jsonl'): string {
  return name.toLowerCase().endsWith(`.${format}`) ? name : `${name}.${format}`;
}

const fileNameField = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = fileNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Export every memory of the client's scope with its embedding and metadata to a file of the
 * memoir home's `exports` folder (the seed's `memory_export`). The model names the file;
 * it never gives a path.
 *
 * @group Agent tools
 */
export const memoryExportTool = defineAgentTool({
  name: 'memory_export',
  title: 'Export memories',
  description:
    'Write every memory (content, metadata, embeddings) and record to a file in the memoir home\'s "exports" folder. ' +
    'name is a plain file name, not a path (letters, digits, ".", "_", "-", spaces; no "/", no leading "."); ' +
    "the format's extension is added when missing. An existing file of that name is kept unless overwrite is true. " +
    'format "jsonl" (JSON Lines) or "json" (one JSON array of the same records): `memoir import` reads either back. Returns the path and counts.',
  inputSchema: z
    .object({
      name: fileNameField.describe('File name in the exports folder, e.g. "memories-2026-11" (no path).'),
      format: z
        .enum(['json', 'jsonl'])
        .optional()
        .describe('"jsonl" (default) or "json"; `memoir import` reads both back.'),
      overwrite: z.boolean().optional().describe('Replace an existing export of that name. Default false.'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { name, format = 'jsonl', overwrite = false }, context) {
    const folder = await homeFolder('memory_export', context.home, EXPORTS_FOLDER, true);
    const target = await fileInFolder('memory_export', 'name', folder, exportFileName(name, format));
    // Through the scoped client's export(): a client built for a scope exports that scope only.
    const counts = await writeFileAtomically('memory_export', 'name', target, overwrite, (sink) =>
      writeExport(client, sink, format),
    );
    const memories = counts.memory ?? 0;
    const file = basename(target.path);
    return {
      text: `Exported ${plural(memories, 'memory', 'memories')} to ${target.path} (${format}).`,
      structured: { path: target.path, file, format, memories, lines: counts },
    };
  },
});

/**
 * A named backup of all memory data (the seed's `memory_backup`).
 *
 * @group Agent tools
 */
export const memoryBackupTool = defineAgentTool({
  name: 'memory_backup',
  title: 'Back up memories',
  description:
    'Make a backup (a verified tar.gz of all memory data) before an experiment or a risky change, in the memoir home\'s "backups" folder. ' +
    'name is a label; characters other than letters, digits, ".", "_" and "-" become "_". Returns its file name, for memory_restore.',
  inputSchema: z
    .object({ name: z.string().trim().min(1).max(100).optional().describe('A name, e.g. "before_experiment".') })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { name }) {
    const info = await client.backup(name);
    const file = basename(info.path);
    return {
      text: `Backed up ${countsText(info.counts)} to ${info.path} (restore it with memory_restore, backup: "${file}").`,
      structured: { ...info, file },
    };
  },
});

/**
 * Replace the memory data with a backup's (the seed's `memory_restore`).
 *
 * @group Agent tools
 */
export const memoryRestoreTool = defineAgentTool({
  name: 'memory_restore',
  title: 'Restore a backup',
  description:
    'Replace all current memory data with a backup from the memoir home\'s "backups" folder, named by its file name as ' +
    'memory_backup returned it (e.g. "20261126-101500-000_before_experiment.tar.gz"); no other path is read. The archive is ' +
    'checked first and the current data is backed up before being replaced. Ask the user before calling; confirm must be true.',
  inputSchema: z
    .object({
      backup: z
        .string()
        .trim()
        .min(1, 'expected the file name of a backup')
        .max(4096)
        .describe('The backup\'s file name in the backups folder, from memory_backup (its "file").'),
      confirm: z.boolean().optional().describe('Must be true: the user agreed to overwrite the current data.'),
    })
    .strict(),
  readOnly: false,
  destructive: true,
  async run(client, { backup, confirm }, context) {
    requireConfirm('memory_restore', confirm, 'replaces all current memories with the backup');
    const folder = await homeFolder('memory_restore', context.home, BACKUPS_FOLDER, false);
    // The path memory_backup showed is accepted when it is a file directly in the backups folder.
    const inFolder = [folder, resolve(context.home ?? folder, BACKUPS_FOLDER)];
    const name = isAbsolute(backup) && inFolder.includes(dirname(resolve(backup))) ? basename(backup) : backup;
    const source = await fileInFolder('memory_restore', 'backup', folder, name);
    if (!source.exists) {
      throw new ValidationError([{ field: 'backup', message: `no backup named ${name} in ${folder}` }], {
        component: 'memory_restore',
        suggestion: 'List the backups with `memoir backup --list`, or make one with memory_backup.',
      });
    }
    const report = await client.restore(source.path, { confirm: true });
    return {
      text: `Restored ${countsText(report.restored)} from backup "${report.backup.name}" (made ${report.backup.createdAt}); the data it replaced was backed up first.`,
      structured: { ...report },
    };
  },
});

/**
 * Delete everything, after a verified backup (the seed's `memory_clear_all`).
 *
 * @group Agent tools
 */
export const memoryClearAllTool = defineAgentTool({
  name: 'memory_clear_all',
  title: 'Clear all memories',
  description:
    'Delete every memory and record for a fresh start. A verified backup is made first. ' +
    'Only when the user explicitly asks; confirm must be true.',
  inputSchema: z
    .object({ confirm: z.boolean().optional().describe('Must be true: the user asked to delete everything.') })
    .strict(),
  readOnly: false,
  destructive: true,
  async run(client, { confirm }) {
    requireConfirm('memory_clear_all', confirm, 'deletes every memory');
    const counts = await client.clearAll({ confirm: true });
    return {
      text: `Deleted ${countsText(counts)}; a backup was made first (list backups with \`memoir backup --list\`).`,
      structured: { deleted: counts },
    };
  },
});

/**
 * The usage dashboard (the seed's `memory_stats`).
 *
 * @group Agent tools
 */
export const memoryStatsTool = defineAgentTool({
  name: 'memory_stats',
  title: 'Memory statistics',
  description:
    'Overview of memory: totals by kind and category, storage against the quota, most frequent actions, sessions, recall speed and cache hit rate.',
  inputSchema: z.object({}).strict(),
  readOnly: true,
  destructive: false,
  async run(client) {
    const stats = await client.stats();
    const byCategory = Object.entries(stats.byCategory)
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name}: ${count}`)
      .join(', ');
    const mb = (stats.bytes / 1_048_576).toFixed(1);
    const lines = [
      `${plural(stats.memories, 'memory', 'memories')}${byCategory ? ` (${byCategory})` : ''}.`,
      `Storage: ${mb} MB of ${stats.quota.maxSizeMb} MB (${stats.quota.usedPercent.toFixed(0)}%).`,
      `Sessions: ${stats.sessionActivity.count}, ${stats.sessionActivity.averageMemories.toFixed(1)} memories each on average.`,
      stats.topActions.length > 0
        ? `Most frequent actions: ${stats.topActions.map((tally) => `${tally.name} ×${tally.count}`).join(', ')}.`
        : 'No captured actions yet.',
      `Recall: ${stats.recall.count} queries, ${stats.recall.averageMs.toFixed(1)} ms on average; embedding cache hit rate ${(stats.embeddingCache.hitRate * 100).toFixed(0)}%.`,
    ];
    return { text: lines.join('\n'), structured: { ...stats } };
  },
});
