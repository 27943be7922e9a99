import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createGzip } from 'node:zlib';
import { tarStream } from '../../src/core/backup/index.js';
import { FIXTURE_TIME } from '../contracts/memory-fixtures.js';

// Archives of hundreds of megabytes that take a few hundred kilobytes on disk, written as
// streams so the test process itself never holds them: what an attacker sends, and what a
// large honest backup looks like, for the tests that measure memory and event-loop time.

/** The chunks of a dump, produced afresh on every call. */
export type DumpSource = () => AsyncIterable<Buffer>;

const HEADER = '{"type":"header","format":"memoir-jsonl","version":1,"embedder":null}\n';

/** A memory line as `exportRecords` writes it (keys sorted), with `blob` in its metadata. */
export function memoryLine(id: string, blob: string): string {
  const memory = {
    abstract: 'Big.',
    accessCount: 0,
    bookmarked: false,
    category: 'note',
    content: 'Big.',
    context: null,
    createdAt: FIXTURE_TIME,
    entities: [],
    fingerprint: 'f',
    id,
    importance: 0.5,
    invalidationReason: null,
    kind: 'world',
    lastAccessedAt: null,
    metadata: { blob },
    occurredAt: FIXTURE_TIME,
    overview: null,
    scope: {},
    sessionId: null,
    source: null,
    supersededBy: null,
    updatedAt: FIXTURE_TIME,
    validFrom: FIXTURE_TIME,
    validTo: null,
  };
  return `{"type":"memory","memory":${JSON.stringify(memory)},"embedding":null}\n`;
}

/**
 * A dump of `lines` memory lines, each a distinct memory (`big-0`, `big-1`, …) holding
 * `blobChars` characters: restored, the store keeps all of them, so it holds the size named.
 */
export function manyMemories(lines: number, blobChars: number): DumpSource {
  const blob = 'x'.repeat(blobChars);
  return async function* () {
    yield Buffer.from(HEADER);
    for (let i = 0; i < lines; i++) yield Buffer.from(memoryLine(`big-${i}`, blob));
  };
}

/** A dump whose one memory line has `contentBytes` of content: far over any line cap. */
export function oneHugeLine(contentBytes: number): DumpSource {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  return async function* () {
    yield Buffer.from(HEADER);
    yield Buffer.from('{"type":"memory","memory":{"content":"');
    for (let left = contentBytes; left > 0; left -= chunk.length) yield chunk.subarray(0, Math.min(left, chunk.length));
    yield Buffer.from('"},"embedding":null}\n');
  };
}

/**
 * Write a backup archive of `dump` to `path` whose manifest matches it exactly (size,
 * sha256 and the memory count given), streaming all the way.
 */
export async function writeBigArchive(path: string, dump: DumpSource, memories: number): Promise<number> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of dump()) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  const manifest = Buffer.from(
    JSON.stringify({
      format: 'memoir-backup',
      version: 1,
      createdAt: FIXTURE_TIME,
      name: 'big',
      files: { 'memories.jsonl': { sha256: hash.digest('hex'), bytes } },
      counts: { memories, opinions: 0, procedures: 0, sessions: 0, entities: 0 },
    }),
  );
  await pipeline(
    tarStream([
      { name: 'manifest.json', size: manifest.length, data: manifest },
      { name: 'memories.jsonl', size: bytes, data: dump },
    ]),
    createGzip({ level: 1 }),
    createWriteStream(path),
  );
  return bytes;
}

/**
 * The process's own memory in bytes: on Linux the anonymous resident set (RssAnon), leaving out
 * file pages mapped into it — SQLite maps its database file, and the pages a restore touches
 * there are the kernel's cache of the file, not memory the process holds; elsewhere the whole RSS.
 */
function ownMemory(): number {
  try {
    const kib = /^RssAnon:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // No /proc: not Linux.
  }
  return process.memoryUsage.rss();
}

/** V8's full collection, which Node exposes only behind a flag: the flag is set for this process here. */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Peak growth of the process's own memory while `work` runs, sampled every few milliseconds, and
 * the longest pause between samples.
 *
 * With `collect`, garbage is collected every 50 ms while it runs, so the peak is what the work
 * holds, not what the collector had not yet got round to: without it the same refused restore
 * peaked anywhere from +74 to +214 MiB on 2 busy cores, the top of that range above a bound
 * meant to tell streaming from holding the whole archive. Leave it off where the pauses
 * themselves are measured.
 */
export async function measure<T>(
  work: () => Promise<T>,
  options: { collect?: boolean } = {},
): Promise<{ result: T; peakRssDelta: number; longestGap: number; ms: number }> {
  const collect = options.collect ? fullCollection() : undefined;
  collect?.();
  const baseline = ownMemory();
  let peak = baseline;
  let last = performance.now();
  let longestGap = 0;
  let lastCollection = last;
  const start = last;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
    peak = Math.max(peak, ownMemory());
    if (collect && now - lastCollection >= 50) {
      collect();
      lastCollection = performance.now();
    }
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, ownMemory());
    return { result, peakRssDelta: peak - baseline, longestGap, ms: performance.now() - start };
  } finally {
    clearInterval(timer);
  }
}
