/**
 * `memoir ui`: the web view of the memories of this home (and scope), served on 127.0.0.1 with
 * a random token in the URL it prints. The view is loaded only when this command runs.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { integer, nonEmpty } from './cli-options.js';

/** The flags of `memoir ui`, as commander parses them. */
interface UiFlags {
  port?: number;
  workspace?: string;
  readOnly?: boolean;
}

// Resolves on SIGINT or SIGTERM.
function stopped(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function runUi(context: CliContext, flags: UiFlags): Promise<void> {
  if (flags.workspace !== undefined) context.clientOptions = { workspace: resolve(flags.workspace) };
  const client = await context.client('vectors');
  if (flags.workspace !== undefined) {
    const report = await client.workspace.index();
    context.note(
      `memoir ui: workspace ${client.workspace.root}: ${report.files} file(s), ${report.indexed} item(s) indexed`,
    );
  }
  const { serveUi } = await import('../integrations/ui/index.js');
  const scope = context.scope;
  const endpoint = await serveUi({
    client,
    ...(scope ? { scope } : {}),
    port: flags.port ?? 0,
    readOnly: flags.readOnly === true,
    logger: context.logger,
  });
  const what = scope
    ? `scope ${Object.entries(scope)
        .map(([key, value]) => `${key}=${value}`)
        .join(', ')}`
    : 'all scopes (admin view)';
  context.note(`memoir ui: ${context.config.home}, ${what}${flags.readOnly ? ', read-only' : ''}. Open:`);
  // The URL alone on stdout, so a script can read it.
  context.stdout.write(`${endpoint.url}\n`);
  context.note(
    `memoir ui: a browser resolves ${endpoint.hostName} to this machine; a program that does not can use ${endpoint.address} with the header Authorization: Bearer <the token>.`,
  );
  await stopped();
  await endpoint.close();
}

/** Add `ui`. */
export function registerUiCommands(program: Command, context: CliContext): void {
  program
    .command('ui')
    .description(
      'See and correct the memories in a browser: a local web view on 127.0.0.1, opened with the URL it prints.',
    )
    .option('--port <n>', 'port (default: a free one)', integer(0, 65_535))
    .option('--workspace <dir>', 'a Markdown workspace, indexed before serving', nonEmpty)
    .option('--read-only', 'show the pages without the edit, correct, invalidate and forget actions')
    .addHelpText(
      'after',
      `
The URL carries a random token; the first page trades it for a cookie. Only requests addressed to
127.0.0.1 or localhost, from pages of the view itself, are answered.
--user, --agent and --namespace fix the scope; without them the view is an admin view that can switch scope.
Examples:
  memoir ui
  memoir --user alice ui --read-only
  memoir ui --port 8787 --workspace ~/agent-workspace`,
    )
    .action((flags: UiFlags) => runUi(context, flags));
}
