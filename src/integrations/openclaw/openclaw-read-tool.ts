import { z } from 'zod';
import { memoryGetTool } from '../agent-tools.js';
import { type Mapping, mapping } from './openclaw-tool-mapping.js';

// One memory by id at the tier asked for (seed 002's L0 abstract / L1 overview / L2 content):
// the recall hook injects L0, memory_recall shows the content; this reads the L1 overview
// when the abstract is not enough. The shared tool is MCP's memory_get, but it is registered
// as memory_read: memory-core, which OpenClaw loads beside memoir by default, registers a
// memory_get of its own (a workspace file by path), and the host keeps only one of two tools
// of one name.

/** memory_read: MCP's memory_get with the plugin's parameter names. */
export const READ_MAPPING: Mapping = mapping({
  name: 'memory_read',
  label: 'Memory Read',
  description:
    'Read one of your memories by its id (from memory_recall or memory_store). tier picks how much: L0 its one-sentence ' +
    'abstract, L1 its structured overview (a few hundred tokens), L2 (default) the full content. Read L1 when the ' +
    'abstract is not enough, L2 only when you need every detail.',
  params: z
    .object({
      memoryId: z.string().trim().min(1, 'expected a memory id').max(256).describe('Memory ID'),
      tier: z
        .enum(['L0', 'L1', 'L2', 'abstract', 'overview', 'content'])
        .optional()
        .describe('L0 (abstract), L1 (overview) or L2 (content, default)'),
    })
    .strict(),
  tool: memoryGetTool,
  toArgs: (params) => ({ memory_id: params.memoryId, ...(params.tier === undefined ? {} : { tier: params.tier }) }),
});
