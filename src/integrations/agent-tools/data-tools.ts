/** The seed's data control: export, backup, restore, clear everything, and the usage dashboard. */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { BackupCounts, MemoryClient } from '../../index.js';
import { defineAgentTool, requireConfirm } from './define-agent-tool.js';
import { plural } from './tool-text.js';

function countsText(counts: BackupCounts): string {
  const parts = [plural(counts.memories, 'memory', 'memories')];
  if (counts.sessions > 0) parts.push(plural(counts.sessions, 'session', 'sessions'));
  if (counts.procedures > 0) parts.push(plural(counts.procedures, 'procedure', 'procedures'));
  if (counts.opinions > 0) parts.push(plural(counts.opinions, 'opinion', 'opinions'));
  if (counts.entities > 0) parts.push(plural(counts.entities, 'entity', 'entities'));
  return parts.join(', ');
}

/** Write the client's export to `path` as JSON Lines or one JSON array; a failed write leaves no file. */
async function writeExport(client: MemoryClient, path: string, format: 'json' | 'jsonl') {
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path, { encoding: 'utf8' });
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const counts: Record<string, number> = {};
  try {
    let first = true;
    if (format === 'json') await write('[\n');
    for await (const line of client.export()) {
      const type = (JSON.parse(line) as { type?: unknown }).type;
      if (typeof type === 'string') counts[type] = (counts[type] ?? 0) + 1;
      await write(format === 'json' ? `${first ? '' : ',\n'}${line}` : `${line}\n`);
      first = false;
    }
    if (format === 'json') await write('\n]\n');
    out.end();
    await once(out, 'finish');
  } catch (error) {
    out.destroy();
    await rm(path, { force: true });
    throw error;
  }
  return counts;
}

/**
 * Export every memory with its embedding and metadata to a file (the seed's `memory_export`).
 *
 * @group Agent tools
 */
export const memoryExportTool = defineAgentTool({
  name: 'memory_export',
  title: 'Export memories',
  description:
    'Write every memory (content, metadata, embeddings) and record to a file. format "jsonl" is what `memoir import` reads back; ' +
    '"json" is one JSON array of the same records, for other tools. Returns the path and counts.',
  inputSchema: z
    .object({
      format: z.enum(['json', 'jsonl']).optional().describe('"jsonl" (default, re-importable) or "json".'),
      output_path: z
        .string()
        .trim()
        .min(1, 'expected a file path')
        .max(4096)
        .describe('File to write, e.g. "/tmp/memories.jsonl".'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { format = 'jsonl', output_path }) {
    const path = resolve(output_path);
    const counts = await writeExport(client, path, format);
    const memories = counts.memory ?? 0;
    return {
      text: `Exported ${plural(memories, 'memory', 'memories')} to ${path} (${format}).`,
      structured: { path, format, memories, lines: counts },
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
    'Make a backup (a verified tar.gz of all memory data) before an experiment or a risky change. Returns its path, for memory_restore.',
  inputSchema: z
    .object({ name: z.string().trim().min(1).max(100).optional().describe('A name, e.g. "before_experiment".') })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { name }) {
    const info = await client.backup(name);
    return {
      text: `Backed up ${countsText(info.counts)} to ${info.path}.`,
      structured: { ...info },
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
    'Replace all current memory data with a backup (from memory_backup). The archive is checked first and the current data ' +
    'is backed up before being replaced. Ask the user before calling; confirm must be true.',
  inputSchema: z
    .object({
      backup_path: z
        .string()
        .trim()
        .min(1, 'expected the path of a backup')
        .max(4096)
        .describe('The .tar.gz backup file.'),
      confirm: z.boolean().optional().describe('Must be true: the user agreed to overwrite the current data.'),
    })
    .strict(),
  readOnly: false,
  destructive: true,
  async run(client, { backup_path, confirm }) {
    requireConfirm('memory_restore', confirm, 'replaces all current memories with the backup');
    const report = await client.restore(resolve(backup_path), { confirm: true });
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
