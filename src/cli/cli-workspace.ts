/** A client over a Markdown workspace for one command, closed when the command is done. */

import { resolve } from 'node:path';
import type { MemoryClient } from '../core/client/memory-client.js';
import type { CliContext } from './cli-context.js';

/**
 * Run `work` with the run's client over the workspace at `root` (its one index,
 * `<root>/.memory/index.sqlite`), after bringing the index up to date with the files. The client
 * is the one every command gets: the configured embedder and model, the run's scope — the same
 * as `memoir mcp --workspace` opens, so both read one index the same way.
 */
export async function withWorkspace<T>(
  context: CliContext,
  root: string,
  work: (client: MemoryClient, report: Awaited<ReturnType<MemoryClient['workspace']['index']>>) => Promise<T>,
  options: { rebuild?: boolean } = {},
): Promise<T> {
  // A one-shot command ends long before a scheduled reflect, and must not start one on its
  // way in (one is due at once when the workspace has no record of its last): `memoir reflect`
  // and the long-running doors (`memoir mcp`) reflect.
  context.clientOptions = { ...context.clientOptions, workspace: resolve(root), reflect: { every: 'off' } };
  const client = await context.client('vectors');
  const report = await client.workspace.index({ rebuild: options.rebuild ?? false });
  return work(client, report);
}

/** Help of `--workspace` on the commands that change memories. */
export const WORKSPACE_WRITE =
  "a Markdown workspace: the change is written to its day's memory/YYYY-MM-DD.md and indexed from there";

/** Run `work` on the workspace at `root` when one is given, else on the run's client. */
export async function inWorkspaceOrNot<T>(
  context: CliContext,
  root: string | undefined,
  access: 'vectors' | 'records',
  work: (client: MemoryClient) => Promise<T>,
): Promise<T> {
  if (root === undefined) return work(await context.client(access));
  return withWorkspace(context, root, (client) => work(client));
}
