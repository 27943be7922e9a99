/** A client over a Markdown workspace for one command, closed when the command is done. */
import type { MemoryClient } from '../core/client/memory-client.js';
import { createWorkspace } from '../workspace.js';
import type { CliContext } from './cli-context.js';

/**
 * Run `work` with a client over the workspace at `root` (its index at
 * `<root>/.memory/index.sqlite`), after bringing the index up to date with the files.
 */
export async function withWorkspace<T>(
  context: CliContext,
  root: string,
  work: (client: MemoryClient, report: Awaited<ReturnType<MemoryClient['workspace']['index']>>) => Promise<T>,
  options: { rebuild?: boolean } = {},
): Promise<T> {
  const client = createWorkspace({ root, logger: context.logger, clock: { now: context.now }, scope: context.scope });
  try {
    const report = await client.workspace.index({ rebuild: options.rebuild ?? false });
    return await work(client, report);
  } finally {
    await client.close();
  }
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
