/**
 * ustar archives as streams: a writer that yields blocks as its entries' data arrives,
 * a reader that hands out each entry's data as it is inflated, and a gunzip step that
 * counts bytes as they flow. Memory stays bounded by a few chunks whatever the archive's
 * size; the header checks are those of the in-memory reader (`tar-header.ts`).
 *
 * @module
 */
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ValidationError } from '../spec/errors.js';
import { BLOCK, fileHeader, type HeaderState, isEndBlock, paddingOf, parseHeader, reject } from './tar-header.js';

/** Bytes the reader accepts after the end-of-archive marker (tar tools pad to 10 KiB records). */
const MAX_TRAILING_BYTES = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A file to write with {@link tarStream}. */
export interface TarStreamInput {
  /** Relative path inside the archive. */
  name: string;
  /** Bytes of data; the header is written before the data, so it must be known. */
  size: number;
  /** Modification time in milliseconds since the epoch. Default 0. */
  mtime?: number;
  /** The data: one buffer, or a source of chunks that must add up to exactly `size` bytes. */
  data: Buffer | (() => AsyncIterable<Buffer>);
}

/**
 * The blocks of a ustar archive of `entries`, ending with two zero blocks, yielded as the
 * data arrives (pipe it through gzip into a file).
 *
 * @throws RangeError for an unsafe or repeated name, or data that is not `size` bytes long.
 */
export async function* tarStream(entries: Iterable<TarStreamInput>): AsyncGenerator<Buffer> {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.name)) throw new RangeError(`tar: "${entry.name}" is written twice`);
    seen.add(entry.name);
    yield fileHeader(entry.name, entry.size, entry.mtime ?? 0);
    let written = 0;
    if (Buffer.isBuffer(entry.data)) {
      written = entry.data.length;
      if (written === entry.size) yield entry.data;
    } else {
      for await (const chunk of entry.data()) {
        written += chunk.length;
        if (written > entry.size) break;
        yield chunk;
      }
    }
    if (written !== entry.size) {
      throw new RangeError(`tar: "${entry.name}" was to hold ${entry.size} bytes but its data is ${written} bytes`);
    }
    const padding = paddingOf(entry.size);
    if (padding > 0) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** Reads exact byte counts from a source of chunks, holding only what it was handed. */
class ByteReader {
  readonly #source: AsyncIterator<Buffer>;
  readonly #queue: Buffer[] = [];
  #buffered = 0;
  #ended = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.#source = source[Symbol.asyncIterator]();
  }

  async #pull(): Promise<boolean> {
    if (this.#ended) return false;
    const next = await this.#source.next();
    if (next.done) {
      this.#ended = true;
      return false;
    }
    if (next.value.length > 0) {
      this.#queue.push(next.value);
      this.#buffered += next.value.length;
    }
    return true;
  }

  /** Exactly `count` bytes, or null when the source ends first. */
  async read(count: number): Promise<Buffer | null> {
    while (this.#buffered < count) if (!(await this.#pull())) return null;
    const parts: Buffer[] = [];
    let needed = count;
    while (needed > 0) {
      const chunk = this.#next(needed);
      parts.push(chunk);
      needed -= chunk.length;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** The next 1 to `max` bytes, or null at the end of the source. */
  async some(max: number): Promise<Buffer | null> {
    while (this.#buffered === 0) if (!(await this.#pull())) return null;
    return this.#next(max);
  }

  #next(max: number): Buffer {
    const head = this.#queue[0]!;
    const chunk = head.length <= max ? head : head.subarray(0, max);
    if (chunk === head) this.#queue.shift();
    else this.#queue[0] = head.subarray(max);
    this.#buffered -= chunk.length;
    return chunk;
  }
}

/** One regular file of an archive read by {@link readTarStream}. */
export interface TarStreamEntry {
  /** Relative path inside the archive, `/`-separated, checked safe. */
  name: string;
  /** Bytes of data declared by the header. */
  size: number;
  /**
   * The data as it arrives, exactly `size` bytes. Read it (or not) before asking for the
   * next entry: what is left unread is skipped.
   */
  body: AsyncGenerator<Buffer>;
}

/**
 * The entries of an uncompressed tar stream, one at a time, with the strict checks of the
 * in-memory reader: safe names, regular files only, header checksums, no duplicate names,
 * at most `maxBytes` of data (checked from each header, before its data is read), no
 * truncation, an end-of-archive marker, and at most 1 MiB after it (read to the end, so a
 * gzip source checks its trailer). Nothing is written anywhere.
 *
 * @throws ValidationError naming the entry and the problem.
 */
export async function* readTarStream(
  source: AsyncIterable<Buffer>,
  options: { maxBytes: number },
): AsyncGenerator<TarStreamEntry> {
  const reader = new ByteReader(source);
  const state: HeaderState = { seen: new Set(), total: 0, maxBytes: options.maxBytes };
  for (let index = 1; ; index++) {
    const header = await reader.read(BLOCK);
    if (!header) reject('archive', 'truncated: it ends before the end-of-archive marker');
    if (isEndBlock(header)) break;
    const { name, size } = parseHeader(header, index, state);
    const label = `entry ${index} (${JSON.stringify(name)}): data`;
    let remaining = size;
    const take = async (): Promise<Buffer> => {
      const chunk = await reader.some(Math.min(remaining, CHUNK));
      if (!chunk) reject(label, `truncated: ${size} bytes declared, ${size - remaining} present`);
      remaining -= chunk.length;
      return chunk;
    };
    const body = async function* () {
      while (remaining > 0) yield await take();
    };
    yield { name, size, body: body() };
    while (remaining > 0) await take();
    const padding = paddingOf(size);
    if (padding > 0 && !(await reader.read(padding))) {
      reject('archive', 'truncated: it ends before the end-of-archive marker');
    }
  }
  let trailing = 0;
  for (let chunk = await reader.some(CHUNK); chunk; chunk = await reader.some(CHUNK)) {
    trailing += chunk.length;
    if (trailing > MAX_TRAILING_BYTES) {
      reject('archive', `more than ${MAX_TRAILING_BYTES} bytes follow the end-of-archive marker`);
    }
  }
}

/** A failure to read the archive's bytes (not a fault of its contents). */
export class ArchiveReadError extends Error {
  constructor(cause: unknown) {
    super(`cannot read the archive: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'ArchiveReadError';
  }
}

/**
 * Gunzip `source` as a stream, refusing output beyond `maxBytes` as it flows. Destroys
 * `source` when done or abandoned.
 *
 * @throws ValidationError for data that is not gzip, truncated gzip or too much output;
 * {@link ArchiveReadError} when `source` itself fails.
 */
export async function* gunzipStream(source: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  const gunzip = createGunzip({ chunkSize: CHUNK });
  let readFailure: unknown;
  source.once('error', (error) => {
    readFailure = error;
    gunzip.destroy(error);
  });
  source.pipe(gunzip);
  let total = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) reject('archive', `it unpacks to more than ${maxBytes} bytes`);
      yield chunk;
    }
  } catch (error) {
    if (ValidationError.isInstance(error)) throw error;
    if (readFailure !== undefined) throw new ArchiveReadError(readFailure);
    throw new ValidationError(
      [{ field: 'archive', message: `not a valid gzip stream (${(error as Error).message})` }],
      {
        component: 'backup-archive',
        suggestion: 'The archive is damaged or truncated; nothing was restored.',
        cause: error,
      },
    );
  } finally {
    source.unpipe(gunzip);
    gunzip.destroy();
    source.destroy();
  }
}
