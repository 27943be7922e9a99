/** Exit codes and how errors are shown: `error: …`, then `hint: …`, a stack only with `--debug`. */
import { CommanderError } from 'commander';
import { MemoirError, ValidationError } from '../core/spec/errors.js';
import type { CliOutput } from './cli-context.js';
import { safeText } from './cli-format.js';

/** The CLI's exit codes. */
export const EXIT_CODES = {
  /** Done. */
  ok: 0,
  /** The command ran and failed (not found, store or provider failure, unreadable file). */
  failed: 1,
  /** The command line or the input was wrong (unknown command or option, bad value, invalid input). */
  usage: 2,
} as const;

/** An error the CLI raises itself, with what to do about it. */
export class CliError extends Error {
  constructor(
    message: string,
    /** What the user can do about it. */
    readonly hint: string,
    /** Exit code. */
    readonly exitCode: number = EXIT_CODES.failed,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CliError';
  }
}

/** A command line that can't work (exit code 2). */
export class CliUsageError extends CliError {
  constructor(message: string, hint: string) {
    super(message, hint, EXIT_CODES.usage);
    this.name = 'CliUsageError';
  }
}

/** Where and how to report. */
export interface ReportTarget {
  /** Error stream. */
  stderr: CliOutput;
  /** Print stacks. */
  debug: boolean;
  /** The subcommand that was running, for usage hints. */
  command?: string;
}

const DEFAULT_HINTS: Record<string, string> = {
  NOT_FOUND: 'Check the id; `memoir recall <words>` lists matching memories with their ids.',
  CONFIG_INVALID: 'Fix the setting named in the message (config.json or a MEMOIR_* variable).',
  STORE_FAILED: 'Run `memoir doctor` to check the store file for damage.',
  PROVIDER_FAILED: 'Check the embedding or model provider, then try again.',
  VALIDATION_FAILED: 'Check the value named in the message.',
};

function describe(error: unknown, command: string | undefined): { message: string; hint: string; code: number } {
  const usage = `Run \`memoir ${command ? `${command} ` : ''}--help\` for usage.`;
  if (error instanceof CommanderError) {
    const [first = error.message, ...rest] = error.message.replace(/^error: /, '').split('\n');
    const suggestion = rest.join(' ').match(/\((Did you mean .*\?)\)/)?.[1];
    return { message: first, hint: suggestion ? `${suggestion} ${usage}` : usage, code: EXIT_CODES.usage };
  }
  if (error instanceof CliError) return { message: error.message, hint: error.hint, code: error.exitCode };
  if (MemoirError.isInstance(error)) {
    return {
      message: error.message.replace(/^\[memoir\] /, ''),
      hint: error.suggestion ?? DEFAULT_HINTS[error.code] ?? usage,
      code: ValidationError.isInstance(error) ? EXIT_CODES.usage : EXIT_CODES.failed,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `unexpected error: ${message}`,
    hint: 'This may be a bug in memoir: run again with --debug for the stack trace and report it.',
    code: EXIT_CODES.failed,
  };
}

function stackOf(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    lines.push(
      depth === 0 ? '' : 'caused by:',
      current instanceof Error ? (current.stack ?? current.message) : String(current),
    );
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.filter(Boolean).join('\n');
}

/**
 * Print an error as `error: <message>` and `hint: <suggestion>` (plus the stack with
 * `--debug`) and return the exit code: 0 for help and version, 2 for usage and validation
 * errors, 1 for everything else.
 */
export function reportError(error: unknown, target: ReportTarget): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_CODES.ok;
    // Commander already printed the help (to stderr): `memoir` with no command.
    if (error.code === 'commander.help') return EXIT_CODES.usage;
  }
  const { message, hint, code } = describe(error, target.command);
  target.stderr.write(`error: ${safeText(message)}\nhint: ${safeText(hint)}\n`);
  if (target.debug) target.stderr.write(`${stackOf(error)}\n`);
  return code;
}
