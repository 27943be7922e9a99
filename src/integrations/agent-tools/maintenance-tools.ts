/**
 * The seed's retention and deduplication policies as tools: age-based cleanup and merging of
 * near-duplicates, each a dry run unless the call confirms.
 */
import { z } from 'zod';
import type { Memory, MemoryClient } from '../../index.js';
import { defineAgentTool } from './define-agent-tool.js';
import { memoryLine, plural, section } from './tool-text.js';

// A dry run shows this many of the memories that would go; the ids are all in the data.
const SHOWN = 20;

/** The memories behind `ids`, read through the scoped client (a dry run changed nothing). */
async function shown(client: MemoryClient, ids: readonly string[]): Promise<Memory[]> {
  const found = await Promise.all(ids.slice(0, SHOWN).map((id) => client.get(id).catch(() => undefined)));
  return found.filter((memory): memory is Memory => memory !== undefined);
}

function more(ids: readonly string[]): string[] {
  return ids.length > SHOWN ? [`… and ${ids.length - SHOWN} more`] : [];
}

const confirmField = z
  .boolean()
  .optional()
  .describe('true deletes; omitted or false is a dry run that only lists what would go.');

/**
 * Delete old auto-captured memories (the seed's retention policy); a dry run unless confirmed.
 *
 * @group Agent tools
 */
export const memoryCleanupTool = defineAgentTool({
  name: 'memory_cleanup',
  title: 'Clean up old memories',
  description:
    'Retention: find the memories older than the retention period (default 30 days since memoir last learned or used them) that may expire — by default only auto-captured tool calls; bookmarked and manual_save memories are never deleted. ' +
    'Without confirm it is a dry run listing what would go; with confirm: true (ask the user first) a backup is made and they are deleted.',
  inputSchema: z
    .object({
      retention_days: z
        .number()
        .positive()
        .max(1_000_000)
        .optional()
        .describe("Days to keep, for this run only. Default: the server's retentionDays setting."),
      confirm: confirmField,
    })
    .strict(),
  readOnly: false,
  destructive: true,
  async run(client, { retention_days, confirm }) {
    const dryRun = confirm !== true;
    const result = await client.cleanup({
      dryRun,
      ...(retention_days === undefined ? {} : { retentionDays: retention_days }),
    });
    const count = plural(result.deleted, 'memory', 'memories');
    const kb = (result.bytesFreed / 1024).toFixed(1);
    if (!dryRun) {
      return {
        text: `Deleted ${count} past the retention period (~${kb} KB freed; a backup was made first).`,
        structured: { ...result },
      };
    }
    const memories = await shown(client, result.ids);
    return {
      text: section(
        `Dry run: ${count} would be deleted (~${kb} KB). Call again with confirm: true to delete them.`,
        [...memories.map((memory) => memoryLine(memory)), ...more(result.ids)],
        'Dry run: nothing is past the retention period; nothing would be deleted.',
      ),
      structured: { ...result },
    };
  },
});

/**
 * Keep one of each cluster of near-identical memories (the seed's deduplication policy); a dry
 * run unless confirmed.
 *
 * @group Agent tools
 */
export const memoryConsolidateTool = defineAgentTool({
  name: 'memory_consolidate',
  title: 'Merge near-duplicate memories',
  description:
    'Deduplication: find clusters of near-identical memories (cosine similarity >= threshold, default 0.95) and keep one representative of each, recording the merge on it; bookmarked and manual_save memories are never deleted. ' +
    'Without confirm it is a dry run listing what would go; with confirm: true (ask the user first) the duplicates are deleted.',
  inputSchema: z
    .object({
      threshold: z.number().gt(0).max(1).optional().describe('Least cosine similarity of duplicates. Default 0.95.'),
      category: z.string().trim().min(1).max(256).optional().describe('Only memories of this category, e.g. "screen".'),
      confirm: confirmField,
    })
    .strict(),
  readOnly: false,
  destructive: true,
  async run(client, { threshold, category, confirm }) {
    const dryRun = confirm !== true;
    const result = await client.consolidate({
      dryRun,
      ...(threshold === undefined ? {} : { threshold }),
      ...(category === undefined ? {} : { category }),
    });
    const count = plural(result.deleted, 'near-duplicate', 'near-duplicates');
    const clusters = plural(result.clusters, 'cluster', 'clusters');
    if (!dryRun) {
      return { text: `Deleted ${count} in ${clusters}; one memory of each was kept.`, structured: { ...result } };
    }
    const memories = await shown(client, result.ids);
    return {
      text: section(
        `Dry run: ${count} in ${clusters} would be deleted, keeping ${result.kept.join(', ')}. Call again with confirm: true to delete them.`,
        [...memories.map((memory) => memoryLine(memory)), ...more(result.ids)],
        'Dry run: no near-duplicates; nothing would be deleted.',
      ),
      structured: { ...result },
    };
  },
});
