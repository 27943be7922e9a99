/** export, import and reindex. */
import { once } from 'node:events';
import { createReadStream, createWriteStream, renameSync, statSync, unlinkSync, type WriteStream } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { ImportResult } from '../core/backup/transfer.js';
import type { MemoryClient } from '../core/client/memory-client.js';
import { MemoirError } from '../core/spec/errors.js';
import type { CliContext, CliOutput } from './cli-context.js';
import { type EmbedderChoice, embedderChoice, refuses, settingsFor } from './cli-embedder.js';
import { CliError, CliUsageError } from './cli-errors.js';
import { describeScope } from './cli-format.js';
import { foreignTable, importFromLanceDb } from './cli-import-lancedb.js';
import { importLines } from './cli-import-lines.js';
import { refuseProtectedOutput } from './cli-output-path.js';
import { createProgress, type Progress } from './cli-progress.js';

const CHUNK_BYTES = 64 * 1024;

/** A line that holds a memory or record (not the header, not blank): what progress counts. */
const holdsData = (line: string) => !line.startsWith('{"type":"header"') && line.trim() !== '';

/** Hand the lines on, reporting how many memories and records went by: the client's import and export take no progress callback. */
async function* counting(lines: AsyncIterable<string>, progress: Progress, total?: number): AsyncGenerator<string> {
  let done = 0;
  for await (const line of lines) {
    yield line;
    if (holdsData(line)) progress.update(++done, total);
  }
}

/** Refuse a directory where a file is expected, before anything opens or is written. */
function refuseDirectory(path: string, action: 'export' | 'import'): void {
  let directory = false;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    // Missing or unreadable: the read or write reports it.
  }
  if (!directory) return;
  throw new CliUsageError(
    `${path} is a directory, not a file`,
    action === 'export'
      ? `Name a file to write, e.g. \`memoir export ${join(path, 'memories.jsonl')}\`, or - for stdout.`
      : 'Pass the path of a file written by `memoir export`.',
    { code: 'IS_A_DIRECTORY' },
  );
}

function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}

/** Write lines in chunks, waiting for `drain` when the stream asks for it. */
async function writeLines(target: CliOutput | WriteStream, lines: AsyncIterable<string>): Promise<void> {
  let chunk = '';
  const write = async (text: string) => {
    const flowing = target.write(text);
    if (flowing === false && 'once' in target && typeof target.once === 'function') {
      await once(target as WriteStream, 'drain');
    }
  };
  for await (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length >= CHUNK_BYTES) {
      await write(chunk);
      chunk = '';
    }
  }
  if (chunk) await write(chunk);
}

/** Write to a temporary file beside `path`, then rename, so a failed export leaves no half file. */
async function writeFileAtomically(path: string, lines: AsyncIterable<string>): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  const stream = createWriteStream(temporary, { encoding: 'utf8' });
  try {
    await once(stream, 'open');
    await writeLines(stream, lines);
    stream.end();
    await once(stream, 'finish');
    renameSync(temporary, path);
  } catch (error) {
    stream.destroy();
    try {
      unlinkSync(temporary);
    } catch {
      // Already gone, or never created.
    }
    throw fileError(error, path, 'write');
  }
}

function fileError(error: unknown, path: string, action: 'read' | 'write'): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (MemoirError.isInstance(error) || typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  const reason = code === 'ENOENT' ? 'no such file or directory' : (error as Error).message;
  return new CliError(
    `cannot ${action} ${path}: ${reason}`,
    action === 'read'
      ? 'Check the path; `memoir export <file>` writes such a file.'
      : 'Check that the directory exists and is writable.',
    1,
    { cause: error },
  );
}

/** How many lines an export of the client's scope will have, roughly: for the progress bar only. */
async function exportSize(client: MemoryClient): Promise<number> {
  const stats = await client.stats();
  return stats.memories + stats.opinions + stats.procedures + stats.sessions + stats.entities;
}

async function countLines(path: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(path)) {
    for (const byte of chunk as Buffer) if (byte === 10) lines += 1;
  }
  return lines;
}

/** Add export, import and reindex. */
export function registerTransferCommands(program: Command, context: CliContext): void {
  program
    .command('export')
    .description('Write every memory, opinion, procedure, session and entity to a JSON Lines file.')
    .argument('<file>', 'file to write, or - for stdout')
    .action(async (file: string) => {
      if (file !== '-') {
        refuseProtectedOutput(file, context.protectedPlaces, 'export');
        refuseDirectory(resolve(file), 'export');
      }
      // Export copies records and vectors as they are: it works whatever embedder is configured.
      // Through the client, so a run with --user/--agent/--namespace exports that scope only.
      const client = await context.client('records');
      const scope = context.scope ?? null;
      const progress = createProgress(context.stderr, 'exporting');
      const counts = { memories: 0, records: 0 };
      const total = context.stderr.isTTY ? await exportSize(client) : undefined;
      const lines = counting(client.export(), progress, total);
      async function* counted() {
        for await (const line of lines) {
          if (line.startsWith('{"type":"memory"')) counts.memories += 1;
          else if (!line.startsWith('{"type":"header"')) counts.records += 1;
          yield line;
        }
      }
      const toStdout = file === '-';
      const path = toStdout ? '-' : resolve(file);
      try {
        if (toStdout) await writeLines(context.stdout, counted());
        else await writeFileAtomically(path, counted());
      } finally {
        progress.finish();
      }
      const summary = `Exported ${plural(counts.memories, 'memory', 'memories')} and ${plural(counts.records, 'record')} of ${describeScope(scope)} to ${toStdout ? 'stdout' : path}.`;
      // With `-`, stdout carries the data itself.
      if (toStdout) context.note(summary);
      else if (context.json) context.printJson({ file: path, ...counts, scope });
      else context.print(summary);
    });

  program
    .command('import')
    .description(
      'Read a file written by export (JSON Lines) or by MCP memory_export (JSON Lines or a JSON array); records are replaced by id, so importing twice is safe.',
    )
    .argument('[file]', 'file to read, or - for stdin')
    .option('--from-lancedb <dir>', 'read an OpenClaw memory-lancedb or ePro v2 LanceDB directory instead of a file')
    .option('--table <name>', 'with --from-lancedb: memories (OpenClaw) or agent_memories (ePro v2)')
    .action(async (file: string | undefined, flags: { fromLancedb?: string; table?: string }) => {
      if (flags.fromLancedb !== undefined) {
        const table = foreignTable(flags.table);
        const client = await context.client('vectors');
        return importFromLanceDb(context, client, flags.fromLancedb, table);
      }
      if (file === undefined) {
        throw new CliUsageError(
          'import needs a file (or --from-lancedb <dir>)',
          'Run `memoir import <file>`, e.g. a file written by `memoir export`.',
        );
      }
      const fromStdin = file === '-';
      const path = fromStdin ? '-' : resolve(file);
      if (!fromStdin) {
        refuseDirectory(path, 'import');
        try {
          if (!statSync(path).isFile())
            throw new CliError(`${path} is not a file`, 'Pass the path of a file written by `memoir export`.');
        } catch (error) {
          throw fileError(error, path, 'read');
        }
      }
      // Embeddings are kept when they come from the embedder the store is opened with: the configured one.
      // Through the client, so a scoped run refuses any line of another scope or one replacing its data.
      const client = await context.client('vectors');
      const scope = context.scope ?? null;
      const progress = createProgress(context.stderr, 'importing');
      // Counting lines costs a read of the file, so only when a bar can be shown.
      const total = context.stderr.isTTY && !fromStdin ? Math.max(0, (await countLines(path)) - 1) : undefined;
      const input = fromStdin ? context.stdin : createReadStream(path, { encoding: 'utf8' });
      let result: ImportResult;
      try {
        result = await client.import(counting(importLines(input, fromStdin ? 'stdin' : path), progress, total));
      } catch (error) {
        throw fileError(error, path, 'read');
      } finally {
        progress.finish();
        // A failed import must not keep the file handle.
        if (!fromStdin) (input as ReturnType<typeof createReadStream>).destroy();
      }
      if (context.json) context.printJson({ file: path, ...result, scope });
      else {
        context.print(
          `Imported ${plural(result.memories, 'memory', 'memories')} and ${plural(result.records, 'record')} into ${describeScope(scope)} from ${fromStdin ? 'stdin' : path}.`,
        );
      }
      if (result.skippedEmbeddings > 0) {
        context.note(
          `note: ${plural(result.skippedEmbeddings, 'embedding')} came from a different embedder than ${client.embedder.id} and were left out.\nhint: Run \`memoir reindex\` so those memories are found by meaning again; or, to keep the file's embeddings, configure the embedder it was exported with (its first line names it) and import again into a new home.`,
        );
      }
    });

  program
    .command('reindex')
    .description(
      'Re-embed every memory with the configured embedder (after importing, or to switch embedders: replacing the vectors of another embedder must be asked for with --to-configured or --embedder).',
    )
    .option(
      '--to-configured',
      "replace the store's vectors with the configured embedder's, even when they come from another one",
    )
    .option(
      '--embedder <name>',
      "replace the store's vectors with this embedder's: local, openai, or openai:<model> (server, dimensions and key from the configuration)",
      embedderChoice,
    )
    .action(async (flags: { toConfigured?: boolean; embedder?: EmbedderChoice }) => {
      if (flags.toConfigured && flags.embedder) {
        throw new CliUsageError(
          '--to-configured and --embedder both name the embedder to switch to; pass one',
          '--to-configured uses the configuration; --embedder names another one.',
        );
      }
      const target = context.configuredEmbedder(flags.embedder);
      const client = await context.client({ replaceWith: target });
      const recorded = context.embedders?.recorded ?? null;
      const replaces = refuses(recorded, target);
      if (replaces && !flags.toConfigured && !flags.embedder) {
        const keep = settingsFor(recorded);
        throw new CliUsageError(
          `the store's vectors come from ${recorded.id} (${recorded.dimensions} dimensions); reindexing would replace them with ${target.id} (${target.dimensions} dimensions)`,
          `To replace them, run \`memoir reindex --to-configured\`. To keep them, configure the embedder the store was built with${keep ? ` (${keep})` : ''} in config.json or MEMOIR_EMBEDDER_* variables; then \`memoir reindex\` rebuilds them with it.`,
          { code: 'EMBEDDER_SWITCH_UNCONFIRMED' },
        );
      }
      const progress = createProgress(context.stderr, 'reindexing');
      let result: { reembedded: number };
      try {
        result = await client.reindex({ onProgress: (done, total) => progress.update(done, total) });
      } finally {
        progress.finish();
      }
      const replaced = replaces ? recorded.id : null;
      if (context.json) context.printJson({ ...result, embedder: target.id, replaced });
      else {
        context.print(
          `Re-embedded ${plural(result.reembedded, 'memory', 'memories')} with ${target.id}${replaced ? `, replacing the vectors of ${replaced}` : ''}.`,
        );
      }
      if (flags.embedder) {
        let configured: string | undefined;
        try {
          configured = context.configuredEmbedder().id;
        } catch {
          configured = undefined;
        }
        if (configured !== target.id) {
          const settings = settingsFor(target) ?? `the settings of ${target.id}`;
          context.note(
            `hint: the configuration still names ${configured ?? 'an embedder that cannot be built'}: set ${settings} in config.json or MEMOIR_EMBEDDER_* variables, so that the other commands open the store with ${target.id}.`,
          );
        }
      }
    });
}
