/**
 * Exit codes and how errors are shown: `error: …`, then `hint: …`, a stack only with
 * `--debug`; with `--json`, one JSON object on stderr instead.
 */
import { CommanderError } from 'commander';
import { MemoirError, ValidationError } from '../core/spec/errors.js';
import { safeText } from './cli-format.js';
import { cliHintText } from './cli-hints.js';

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
  /** Machine-readable code, shown with `--json`: `FAILED`, `USAGE` or a more precise one. */
  readonly code: string;
  constructor(
    message: string,
    /** What the user can do about it. */
    readonly hint: string,
    /** Exit code. */
    readonly exitCode: number = EXIT_CODES.failed,
    options?: { cause?: unknown; code?: string },
  ) {
    super(message, options);
    this.name = 'CliError';
    this.code = options?.code ?? (exitCode === EXIT_CODES.usage ? 'USAGE' : 'FAILED');
  }
}

/** A command line that can't work (exit code 2). */
export class CliUsageError extends CliError {
  constructor(message: string, hint: string, options?: { code?: string }) {
    super(message, hint, EXIT_CODES.usage, options);
    this.name = 'CliUsageError';
  }
}

/** Where and how to report. */
export interface ReportTarget {
  /** Error stream (a CliOutput). */
  stderr: { write(chunk: string): unknown };
  /** Print stacks. */
  debug: boolean;
  /** The subcommand that was running, for usage hints. */
  command?: string;
  /** `--json`: print the error as one JSON object. */
  json?: boolean;
}

/** What `--json` prints on stderr for an error. */
export interface JsonError {
  error: {
    /** `USAGE`, `FAILED`, `INTERNAL`, a MemoirError's code (`NOT_FOUND`, `CONFIG_INVALID`, …) or a CLI one. */
    code: string;
    /** What went wrong. */
    message: string;
    /** The setting or input field at fault, when known. */
    field?: string;
    /** What to do about it. */
    suggestion: string;
    /** The process's exit code: 1 failed, 2 bad usage or invalid input. */
    exitCode: number;
    /** With `--debug`: the stack, causes included. */
    stack?: string;
  };
}

const DEFAULT_HINTS: Record<string, string> = {
  NOT_FOUND: 'Check the id; `memoir recall <words>` lists matching memories with their ids.',
  CONFIG_INVALID: 'Fix the setting named in the message (config.json or a MEMOIR_* variable).',
  STORE_FAILED: 'Run `memoir doctor` to check the store file for damage.',
  PROVIDER_FAILED: 'Check the embedding or model provider, then try again.',
  VALIDATION_FAILED: 'Check the value named in the message.',
};

interface Described {
  message: string;
  hint: string;
  /** Exit code. */
  code: number;
  /** Machine-readable code. */
  name: string;
  field?: string;
}

function describe(error: unknown, command: string | undefined): Described {
  const usage = `Run \`memoir ${command ? `${command} ` : ''}--help\` for usage.`;
  if (error instanceof CommanderError) {
    if (error.code === 'commander.help') {
      return { message: 'no command given', hint: 'Run `memoir --help` for the commands.', code: 2, name: 'USAGE' };
    }
    const [first = error.message, ...rest] = error.message.replace(/^error: /, '').split('\n');
    const suggestion = rest.join(' ').match(/\((Did you mean .*\?)\)/)?.[1];
    // "option '-k, --k <n>' argument …": the long flag names the field.
    const tokens = first.match(/option '([^']+)'/)?.[1]?.split(/[\s,]+/) ?? [];
    const option = tokens.find((token) => token.startsWith('--')) ?? tokens[0];
    return {
      message: first,
      hint: suggestion ? `${suggestion} ${usage}` : usage,
      code: EXIT_CODES.usage,
      name: 'USAGE',
      ...(option ? { field: option } : {}),
    };
  }
  if (error instanceof CliError) {
    return { message: error.message, hint: error.hint, code: error.exitCode, name: error.code };
  }
  if (MemoirError.isInstance(error)) {
    const field = (error as { field?: unknown }).field;
    return {
      message: error.message.replace(/^\[memoir\] /, ''),
      // A structured hint is said in flags; the library's sentence speaks of creating clients.
      hint: (error.hint ? cliHintText(error.hint) : error.suggestion) ?? DEFAULT_HINTS[error.code] ?? usage,
      code: ValidationError.isInstance(error) ? EXIT_CODES.usage : EXIT_CODES.failed,
      name: error.code,
      ...(typeof field === 'string' && field !== '' ? { field } : {}),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `unexpected error: ${message}`,
    hint: 'This may be a bug in memoir: run again with --debug for the stack trace and report it.',
    code: EXIT_CODES.failed,
    name: 'INTERNAL',
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
 * `--debug`), or with `--json` as one {@link JsonError} line, and return the exit code: 0
 * for help and version, 2 for usage and validation errors, 1 for everything else.
 */
export function reportError(error: unknown, target: ReportTarget): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_CODES.ok;
    // Commander already printed the help (to stderr): `memoir` with no command.
    if (error.code === 'commander.help' && !target.json) return EXIT_CODES.usage;
  }
  const described = describe(error, target.command);
  if (target.json) {
    const report: JsonError = {
      error: {
        code: described.name,
        message: described.message,
        ...(described.field === undefined ? {} : { field: described.field }),
        suggestion: described.hint,
        exitCode: described.code,
        ...(target.debug ? { stack: stackOf(error) } : {}),
      },
    };
    target.stderr.write(`${JSON.stringify(report)}\n`);
    return described.code;
  }
  target.stderr.write(`error: ${safeText(described.message)}\nhint: ${safeText(described.hint)}\n`);
  if (target.debug) target.stderr.write(`${stackOf(error)}\n`);
  return described.code;
}

/** True when `--json` is among the options of a command line (not after `--`). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
