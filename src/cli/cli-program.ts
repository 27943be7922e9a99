/** The commander program behind `memoir`. */
import { Command } from 'commander';
import { STORE_KINDS } from '../config/setting-registry.js';
import { registerBackupCommands } from './cli-commands-backup.js';
import { registerCoreCommands } from './cli-commands-core.js';
import { registerDoctorCommands } from './cli-commands-doctor.js';
import { registerMaintenanceCommands } from './cli-commands-maintenance.js';
import { registerMcpCommands } from './cli-commands-mcp.js';
import { registerMemoryCommands } from './cli-commands-memory.js';
import { registerProcedureCommands } from './cli-commands-procedures.js';
import { registerRecordCommands } from './cli-commands-record.js';
import { registerTransferCommands } from './cli-commands-transfer.js';
import { registerUiCommands } from './cli-commands-ui.js';
import { registerVersionCommands } from './cli-commands-versions.js';
import { registerWorkspaceCommands } from './cli-commands-workspace.js';
import type { CliContext, GlobalOptions } from './cli-context.js';
import { addSettingFlags, settingFlag, settingsFromFlags } from './cli-options.js';
import { acceptVocabularyOldNames } from './cli-renamed-flags.js';
import { packageVersion } from './cli-version.js';

/**
 * Build the program for one run. It never exits the process: commander's exits become
 * thrown CommanderErrors, and its own error printing is silenced so that runCli prints
 * every error the same way.
 */
export function buildProgram(context: CliContext): Command {
  const program = new Command('memoir')
    .description('Long-term memory for AI agents: retain, recall, export and import the memories under MEMOIR_HOME.')
    .option('--home <dir>', 'memoir home directory (default: $MEMOIR_HOME, else ~/.memoir)', settingFlag('home'))
    .option('--json', 'print machine-readable JSON on stdout, and nothing else')
    .option('--debug', 'print debug logs, and stack traces with errors')
    .option(
      '--store <kind>',
      `the store under the home: ${STORE_KINDS.join(' or ')} (default: $MEMOIR_STORE, else sqlite)`,
      settingFlag('store'),
    )
    .option(
      '--user <id>',
      'act as this user: read and change only their memories (default: $MEMOIR_USER_ID)',
      settingFlag('userId'),
    )
    .option('--agent <id>', 'act as this agent (default: $MEMOIR_AGENT_ID)', settingFlag('agentId'))
    .option('--namespace <name>', 'act inside this namespace (default: $MEMOIR_NAMESPACE)', settingFlag('namespace'));
  addSettingFlags(program)
    .version(packageVersion(), '-V, --version', 'print the version of memoir')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      // With --json, stderr carries only the JSON error (runCli reports a missing command as one).
      writeErr: (text) => (context.json ? undefined : context.stderr.write(text)),
      outputError: () => {},
      getOutHelpWidth: () => context.width,
      getErrHelpWidth: () => (context.stderr.isTTY && context.stderr.columns ? context.stderr.columns : 80),
    })
    .addHelpText(
      'after',
      `
Times (--since, --until, --as-of, --occurred-at): 30d, 12h, 2w, 15m (that long ago), 2025-11-30, 2025-11-30T10:00:00Z.
Scope (--user, --agent, --namespace, or MEMOIR_USER_ID, MEMOIR_AGENT_ID, MEMOIR_NAMESPACE): every
command then sees and changes only that scope's memories; without any, the command acts on all of them.
Embedder: the one <home>/config.json or MEMOIR_EMBEDDER_PROVIDER, _MODEL, _BASE_URL, _DIMENSIONS and
_API_KEY_ENV name (default: local); it must be the one the store was built with for retain, recall,
update --content and import. stats, list, get, export and forget work with any store.
Exit codes: 0 ok, 1 failed, 2 bad usage or invalid input. With --json, errors are JSON on stderr.`,
    )
    .hook('preAction', (_program, action) => {
      const options = action.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
      const settings = settingsFromFlags(options);
      const { json, debug } = options;
      context.globals = { home: settings.home, json, debug, settings };
    });
  registerMemoryCommands(program, context);
  registerVersionCommands(program, context);
  registerTransferCommands(program, context);
  registerBackupCommands(program, context);
  registerDoctorCommands(program, context);
  registerMaintenanceCommands(program, context);
  registerProcedureCommands(program, context);
  registerWorkspaceCommands(program, context);
  registerCoreCommands(program, context);
  registerMcpCommands(program, context);
  registerRecordCommands(program, context);
  registerUiCommands(program, context);
  // After every command: the old flag names docs/vocabulary.md promises, wherever the new one is taken.
  acceptVocabularyOldNames(program, (text) => context.note(text));
  return program;
}
