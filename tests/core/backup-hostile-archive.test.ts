import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyBackup } from '../../src/core/backup/index.js';
import { ValidationError } from '../../src/core/spec/errors.js';
import { type DumpSource, writeBigArchive } from '../helpers/big-archives.js';
import { tempDir } from '../helpers/stores.js';

// A hostile archive costs little to refuse. Before, a 0.5 MB archive of blank lines (100 MiB
// once expanded) took 18 s of CPU before it was accepted: every blank line was split, decoded
// and skipped one by one. Now the dump's size is capped by what the manifest's counts can
// take, blank lines (which no export writes) and lines past the counts are refused at once,
// and the refusal names the entry and the line.

const MiB = 1024 * 1024;
const dir = tempDir('memoir-hostile-archive-');
const HEADER = '{"type":"header","format":"memoir-jsonl","version":1,"embedder":null}\n';
const archives = { blankFew: path.join(dir, 'blank-few.tar.gz'), blankMany: path.join(dir, 'blank-many.tar.gz') };

/** A header, then 100 MiB of newlines. */
const blankLines: DumpSource = async function* () {
  yield Buffer.from(HEADER);
  const chunk = Buffer.alloc(MiB, 0x0a);
  for (let i = 0; i < 100; i++) yield chunk;
};

beforeAll(async () => {
  // The manifest matches the dump exactly (size and checksum), counting no memory…
  await writeBigArchive(archives.blankFew, blankLines, 0);
  // …or claiming two million, so the dump's size is within what its counts could take.
  await writeBigArchive(archives.blankMany, blankLines, 2_000_000);
}, 120_000);

/** What `work` rejected with, and the CPU time it took. */
async function cpuOf(work: () => Promise<unknown>): Promise<{ error: unknown; cpuMs: number }> {
  const start = process.cpuUsage();
  const error = await work().then(
    () => null,
    (caught: unknown) => caught,
  );
  const used = process.cpuUsage(start);
  return { error, cpuMs: (used.user + used.system) / 1000 };
}

describe('a hostile backup archive is refused fast', () => {
  it.each([
    ['counting no memory', 'blankFew', /memories\.jsonl/],
    ['claiming two million memories', 'blankMany', /memories\.jsonl line 2/],
  ] as const)('100 MiB of blank lines, the manifest %s', async (_label, name, field) => {
    const { error, cpuMs } = await cpuOf(() => verifyBackup(archives[name]));
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toMatch(field);
    console.info(`${name}: refused after ${Math.round(cpuMs)} ms of CPU: ${(error as Error).message}`);
    expect(cpuMs).toBeLessThan(1500);
  });
});
