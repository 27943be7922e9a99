import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLanceStore } from '../../adapters/lancedb/index.js';
import { createWorkspace, type MemoryClient } from '../../index.js';
import type { ParsedOpenClawConfig } from './openclaw-config.js';
import type { OpenClawLogger, OpenClawPromptBuildEvent, OpenClawPromptBuildResult } from './openclaw-host-types.js';
import { hostLogger } from './openclaw-memory.js';
import { recallForPrompt } from './openclaw-recall-hook.js';

// The agent's Markdown workspace (seed 004) as a live source: `workspace` in the config, else
// the directory the host gives the agent (`workspaceDir` of the service and hook contexts).
// Each workspace gets its own client over its derived index (`<dir>/.memory/index.sqlite`, or
// `<dir>/.memory/index-lancedb` when the plugin's `store` is LanceDB),
// indexed when first seen, watched while the gateway runs, and reflected on daily. Its facts
// are the agent's own notes: recall puts them before a personal prompt beside the sender's
// memories. Nothing here throws into the host: failures are log lines.

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The agent workspaces the plugin keeps current. */
export interface PluginWorkspaces {
  /**
   * Open, index and watch the workspace for a context's `workspaceDir` (the configured
   * `workspace` wins over it); resolves to its client, or undefined when there is none or it
   * cannot be opened (logged).
   */
  open(workspaceDir: string | undefined): Promise<MemoryClient | undefined>;
  /** Recall from the workspace of a prompt's context, as a block to put before it. */
  recall(
    event: OpenClawPromptBuildEvent,
    workspaceDir: string | undefined,
  ): Promise<OpenClawPromptBuildResult | undefined>;
  /** Stop watching and close every workspace client. */
  close(): Promise<void>;
}

/** The workspaces of a plugin, from its config. */
export function pluginWorkspaces(
  config: ParsedOpenClawConfig & { workspace?: string },
  options: { logger: OpenClawLogger; resolvePath?: (input: string) => string },
): PluginWorkspaces {
  const { logger } = options;
  const opened = new Map<string, Promise<MemoryClient | undefined>>();
  const configured =
    config.workspace === undefined
      ? undefined
      : resolve(options.resolvePath?.(config.workspace) ?? config.workspace.replace(/^~(?=$|\/)/, homedir()));

  async function openAt(root: string): Promise<MemoryClient | undefined> {
    try {
      // The index follows the plugin's `store`: a gateway on LanceDB (say, where better-sqlite3
      // has no build for the host's Node) indexes its workspace into LanceDB too.
      const index =
        config.store === 'lancedb'
          ? { store: createLanceStore({ uri: join(root, '.memory', 'index-lancedb'), logger: hostLogger(logger) }) }
          : {};
      const client = createWorkspace({ root, logger: hostLogger(logger), ...index });
      client.on('error', (event) =>
        logger.warn(`memoir: workspace ${root}: ${event.operation}: ${errorText(event.error)}`),
      );
      // Watched first, so an edit made while the first index runs is not missed.
      client.workspace.watch();
      const report = await client.workspace.index();
      logger.info(`memoir: workspace ${root}: ${report.indexed} item(s) from ${report.files} file(s), watching`);
      return client;
    } catch (error) {
      logger.warn(`memoir: workspace ${root} not opened: ${errorText(error)}`);
      return undefined;
    }
  }

  const open = (workspaceDir: string | undefined) => {
    const root = configured ?? (workspaceDir ? resolve(workspaceDir) : undefined);
    if (root === undefined) return Promise.resolve(undefined);
    let client = opened.get(root);
    if (client === undefined) {
      client = openAt(root);
      opened.set(root, client);
    }
    return client;
  };

  return {
    open,
    async recall(event, workspaceDir) {
      const client = await open(workspaceDir);
      if (client === undefined) return undefined;
      // The workspace client holds the agent's notes only (no scope): all of it is the agent's.
      return recallForPrompt(event, {}, { client: () => client, config, logger });
    },
    async close() {
      const clients = await Promise.all(opened.values());
      opened.clear();
      await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
    },
  };
}
