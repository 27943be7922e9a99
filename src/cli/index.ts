/**
 * The `memoir` command. {@link runCli} runs one command line in process and resolves to
 * its exit code, so it can be tested and embedded; {@link main} runs it for the real
 * process and exits.
 *
 * @module
 */
import type { Command } from 'commander';
import { CliContext, type CliIo } from './cli-context.js';
import { EXIT_CODES, reportError, wantsJson } from './cli-errors.js';
import { buildProgram } from './cli-program.js';

export type { ClientFactoryOptions, CliIo, CliOutput, StoreFactoryOptions } from './cli-context.js';
export { EXIT_CODES, type JsonError } from './cli-errors.js';
export { parseTime } from './cli-time.js';

function commandName(program: Command, argv: readonly string[]): string | undefined {
  const names = new Set(program.commands.map((command) => command.name()));
  return argv.find((arg) => names.has(arg));
}

/**
 * Run one `memoir` command line (without the `node` and script arguments) and resolve to
 * its exit code: 0 ok, 1 failed, 2 bad usage or invalid input. Never throws and never
 * exits the process; output goes to `io.stdout` and `io.stderr`. With `--json`, errors,
 * usage errors included, are one JSON object on stderr ({@link JsonError}).
 *
 * @example
 * ```ts
 * const code = await runCli(['recall', 'tea', '--json'], { stdout, stderr, env: { MEMOIR_HOME: dir } });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo = {}): Promise<number> {
  const context = new CliContext(io);
  context.jsonRequested = wantsJson(argv);
  const program = buildProgram(context);
  const report = (error: unknown) =>
    reportError(error, {
      stderr: context.stderr,
      debug: context.globals.debug === true || program.opts().debug === true,
      command: commandName(program, argv),
      json: context.json,
    });
  let code: number = EXIT_CODES.ok;
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    code = report(error);
  }
  try {
    await context.close();
  } catch (error) {
    const closeCode = report(error);
    if (code === EXIT_CODES.ok) code = closeCode;
  }
  return code;
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** Run `memoir` with the process's arguments, wait for the output to be written, and exit with its code. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<never> {
  // `memoir export - | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_CODES.ok);
    throw error;
  });
  const code = await runCli(argv);
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
