import { spawn } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import {
  brokenInvariants,
  type KillTarget,
  OPERATIONS,
  openTarget,
  type Signature,
  signature,
} from './fixtures/lancedb-kill-script.js';

// Every multi-table operation of the LanceDB store (retain, a supersession, forget,
// deleteSession, import, restore, clearAll) is whole or absent after a SIGKILL at any point.
// A real child process (fixtures/lancedb-kill-worker.ts) seeds a store and runs them in order;
// it is killed either exactly between two writes of one operation (it stops at a phase it
// reports and waits) or at a random moment. Reopened, the store must hold exactly the state
// before or after the operation the kill cut — the signatures of an uncut run — with every
// entity and session tally matching the memories, and no intent or staging table left over.
// Before the intent log, a kill after retain's memories and before their entities left
// tallies one short (the old in-process undo log died with the process).

const worker = resolve(import.meta.dirname, 'fixtures/lancedb-kill-worker.ts');

/**
 * The worker bundled into one file in `workDir` (packages left as imports, found through a
 * node_modules link there): a child then starts in a fraction of a second of CPU where tsx
 * compiling the sources took about one, and this test starts a dozen children per location.
 */
async function bundledWorker(workDir: string): Promise<string> {
  const outfile = join(workDir, 'lancedb-kill-worker.mjs');
  if (existsSync(outfile)) return outfile;
  const modules = join(workDir, 'node_modules');
  if (!existsSync(modules)) symlinkSync(resolve(import.meta.dirname, '../../node_modules'), modules, 'dir');
  await build({
    entryPoints: [worker],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/**
 * Kills per location, kept small for CI: stops spread over the phases (a new offset each run, so
 * successive runs cover all of them), plus kills at a random moment.
 */
export interface KillCounts {
  stops: number;
  random: number;
}
/** Children at once: each is a Node process with LanceDB loaded, on a 2-core machine. */
const PARALLEL = 4;

interface WorkerRun {
  /** Lines the worker printed before it ended or was killed. */
  lines: string[];
  /** Ms from "ready" to the end (or the kill). */
  ms: number;
  killed: boolean;
}

async function runWorker(
  target: KillTarget,
  workDir: string,
  stopAt: number,
  killAfterReady?: number,
): Promise<WorkerRun> {
  const script = await bundledWorker(workDir);
  const child = spawn(process.execPath, [script, JSON.stringify(target), workDir, String(stopAt)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let ready = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (!ready && stdout.includes('ready\n')) {
      ready = Date.now();
      if (killAfterReady !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterReady);
    }
    if (stdout.includes('stopped\n')) child.kill('SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((done, fail) =>
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal === null) fail(new Error(`worker failed (${code}): ${stderr.slice(-2000)}`));
      else done({ lines: stdout.split('\n').filter(Boolean), ms: Date.now() - ready, killed: signal === 'SIGKILL' });
    }),
  );
}

/** The operation a killed run was inside (1-based), or the last it finished when between two. */
function position(lines: readonly string[]): { op: number; inside: boolean } {
  for (let at = lines.length - 1; at >= 0; at--) {
    const [word, number] = lines[at]!.split(' ');
    if (word === 'op') return { op: Number(number), inside: true };
    if (word === 'done') return { op: Number(number), inside: false };
  }
  return { op: 0, inside: false };
}

async function leftovers(target: KillTarget): Promise<string[]> {
  const lancedb = await import('@lancedb/lancedb');
  const connection = await lancedb.connect(target.uri, { storageOptions: target.storageOptions });
  try {
    const names = await connection.tableNames();
    const found = names.filter((name) => name.includes('__staged_'));
    if (names.includes('memories_intents')) {
      const intents = await connection.openTable('memories_intents');
      const count = await intents.countRows();
      intents.close();
      if (count > 0) found.push(`memories_intents holds ${count} rows`);
    }
    return found;
  } finally {
    connection.close();
  }
}

/**
 * The kill test on one kind of location; `nextTarget` names a fresh, empty one per run.
 * Registers one test.
 */
export function killSuite(label: string, nextTarget: () => KillTarget, workDir: string, kills: KillCounts): void {
  it(`${label}: every multi-table operation killed at any point is whole or absent on reopen`, async () => {
    const uncut = await runWorker(nextTarget(), workDir, -1);
    const states: Signature[] = uncut.lines
      .filter((line) => line.startsWith('state '))
      .map((line) => JSON.parse(line.split(' ').slice(2).join(' ')) as Signature);
    expect(states).toHaveLength(OPERATIONS.length + 1);
    // Each operation changes what the store holds, so every cut is told apart (restore brings back the seed).
    for (let op = 1; op < states.length; op++) expect(states[op], OPERATIONS[op - 1]!.name).not.toEqual(states[op - 1]);
    const phases = uncut.lines.filter((line) => line.startsWith('phase ')).length;
    const opOfPhase: number[] = [];
    let current = 0;
    for (const line of uncut.lines) {
      if (line.startsWith('op ')) current = Number(line.split(' ')[1]);
      if (line.startsWith('phase ')) opOfPhase[Number(line.split(' ')[1])] = current;
    }

    // Stops spread over every phase with a random offset, so successive runs cover all of them.
    const offset = Math.random();
    const stops = Array.from({ length: kills.stops }, (_, index) =>
      Math.min(phases, 1 + Math.floor(((index + offset) / kills.stops) * phases)),
    );
    const runs = [
      ...stops.map((stop) => ({ stop, after: undefined as number | undefined })),
      ...Array.from({ length: kills.random }, () => ({ stop: -1, after: Math.floor(Math.random() * uncut.ms) })),
    ];
    const outcomes: string[] = [];
    const queue = [...runs];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let run = queue.shift(); run; run = queue.shift()) {
          const target = nextTarget();
          const result = await runWorker(target, workDir, run.stop, run.after);
          const where = position(result.lines);
          const allowed = where.inside ? [states[where.op - 1]!, states[where.op]!] : [states[where.op]!];
          const store = openTarget(target);
          let found: Signature;
          let problems: string[];
          try {
            found = await signature(store);
            problems = await brokenInvariants(store);
          } finally {
            await store.close();
          }
          const cut = run.stop > 0 ? `stopped after phase ${run.stop}` : `killed ${run.after} ms after ready`;
          const label = `${cut}, ${where.inside ? 'inside' : 'after'} ${OPERATIONS[where.op - 1]?.name ?? 'seed'}: ${JSON.stringify(found)}`;
          expect(problems, label).toEqual([]);
          expect(allowed, label).toContainEqual(found);
          expect(await leftovers(target), label).toEqual([]);
          if (run.stop > 0) expect(opOfPhase[run.stop], label).toBe(where.op);
          outcomes.push(
            !result.killed ? 'finished' : JSON.stringify(found) === JSON.stringify(allowed[0]) ? 'before' : 'after',
          );
        }
      }),
    );
    // The stops cut operations part-way, so some runs must have found the state before one.
    expect(outcomes).toContain('before');
  }, 240_000);
}
