/**
 * The records an import reads, from either format memoir exports: JSON Lines (`memoir export`,
 * MCP `memory_export` with format "jsonl"), or one JSON array of the same records (MCP
 * `memory_export` with format "json"), told apart by the file's first character.
 */
import { createInterface } from 'node:readline';
import { CliError } from './cli-errors.js';

/** Records of a JSON array, one JSON text each, as the import takes them; a bad array is a CliError. */
function* arrayRecords(text: string, source: string): Generator<string> {
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${source} starts with "[" but is not a JSON array: ${(error as Error).message}`,
      'Pass a file written by `memoir export` (JSON Lines) or by memory_export (format "json" or "jsonl").',
    );
  }
  if (!Array.isArray(records)) {
    throw new CliError(
      `${source} is not a JSON array of records`,
      'Pass a file written by `memoir export` or memory_export.',
    );
  }
  for (const record of records) yield JSON.stringify(record);
}

/**
 * The lines of `input`, read only once the import asks for the first one (a readline
 * interface made earlier would read the file while the store opens, and its lines would be
 * lost). When the first non-blank line starts with `[`, the input is one JSON array: it is
 * read whole and each element becomes a line.
 */
export async function* importLines(input: NodeJS.ReadableStream, source: string): AsyncGenerator<string> {
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    let array: string[] | undefined;
    for await (const line of reader) {
      if (array) {
        array.push(line);
        continue;
      }
      const start = line.replace(/^\uFEFF/, '').trimStart();
      if (start === '') continue;
      if (start.startsWith('[')) {
        array = [line.replace(/^\uFEFF/, '')];
        continue;
      }
      yield line;
      // JSON Lines from here on: hand every line over as it is read.
      for await (const rest of reader) yield rest;
      return;
    }
    if (array) yield* arrayRecords(array.join('\n'), source);
  } finally {
    // readline leaves its input open.
    reader.close();
  }
}
