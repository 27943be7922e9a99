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
  // A one-shot command ends long before a scheduled reflect, and must not start one on its
  // way in (one is due at once when the workspace has no record of its last): `memoir reflect`
  // and the long-running doors (`memoir mcp`, `memoir ui`) reflect.
  const client = createWorkspace({
    root,
    logger: context.logger,
    clock: { now: context.now },
    scope: context.scope,
    reflect: { every: 'off' },
  });
  try {
    const report = await client.workspace.index({ rebuild: options.rebuild ?? false });
    return await work(client, report);
  } finally {
    await client.close();
  }
}
