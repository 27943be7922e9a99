import type { OpenClawHostConfig } from './openclaw-host-types.js';

// Seed 002 runs memoir beside memory-lancedb first ("No tools in Phase 1") and replaces it
// later. memory-lancedb registers memory_recall, memory_store and memory_forget; so do memoir's
// tools. OpenClaw 2026.9.6 accepts both registrations and settles the clash when it builds a
// run's tool list: the plugin whose tools resolve first keeps each name, and the other's tool
// is dropped with the error `plugin tool name conflict (<id>): <name>`. The plugin API shows a
// plugin no other plugin's tools (the registry is the host's own, and load order decides who
// registers first), so the host's config is what tells memoir memory-lancedb is there.

/** memory-lancedb's plugin id. */
export const MEMORY_LANCEDB = 'memory-lancedb';

/** The tool names memory-lancedb registers, which memoir's drop-in tools share. */
export const MEMORY_LANCEDB_TOOLS = ['memory_recall', 'memory_store', 'memory_forget'] as const;

/**
 * Why memory-lancedb will load beside memoir, read from the host's config, or undefined when
 * it will not: it is enabled in `plugins.entries`, or owns `plugins.slots.memory` (installing
 * it writes both), and neither `plugins.enabled: false`, `plugins.deny` nor an
 * `plugins.allow` list without it keeps it from loading.
 */
export function memoryLanceDbPresence(config: OpenClawHostConfig | undefined): string | undefined {
  const plugins = config?.plugins;
  if (!plugins || plugins.enabled === false) return undefined;
  if (plugins.deny?.includes(MEMORY_LANCEDB)) return undefined;
  if (plugins.allow && !plugins.allow.includes(MEMORY_LANCEDB)) return undefined;
  const entry = plugins.entries?.[MEMORY_LANCEDB];
  if (entry?.enabled === false) return undefined;
  if (entry) return `${MEMORY_LANCEDB} is enabled in plugins.entries`;
  if (plugins.slots?.memory === MEMORY_LANCEDB) return `${MEMORY_LANCEDB} owns plugins.slots.memory`;
  return undefined;
}

/** What to do about tools: register them or not, and the log line that says why. */
export interface ToolDecision {
  /** Whether memoir registers its tools. */
  register: boolean;
  /** A line for the host's log (info for a default, warn for a clash asked for), or none. */
  log?: { level: 'info' | 'warn'; message: string };
}

/**
 * Decide about memoir's tools: `registerTools` as configured; unset, on unless memory-lancedb
 * is there. Asked for beside memory-lancedb, they are registered and the clash is named.
 */
export function decideTools(registerTools: boolean | undefined, config: OpenClawHostConfig | undefined): ToolDecision {
  const beside = memoryLanceDbPresence(config);
  if (registerTools === false) return { register: false };
  if (registerTools === undefined) {
    if (!beside) return { register: true };
    return {
      register: false,
      log: {
        level: 'info',
        message: `memoir: no memory tools registered: ${beside}, and its ${MEMORY_LANCEDB_TOOLS.join(', ')} keep their names (recall and capture still run, and the memory_core_* tools, which no other plugin names, stay; set registerTools: true to register memoir's)`,
      },
    };
  }
  if (!beside) return { register: true };
  return {
    register: true,
    log: {
      level: 'warn',
      message: `memoir: registerTools is true while ${beside}: ${MEMORY_LANCEDB_TOOLS.join(', ')} exist in both plugins; OpenClaw keeps the one whose plugin's tools resolve first and drops the other with "plugin tool name conflict" (memory_history, memory_correct, memory_recall_steps, memory_read and the session tools are memoir's alone). Disable memory-lancedb to make memoir's the only ones.`,
    },
  };
}
