import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { localEmbeddingOf } from './local-embedding.js';

/** Marks a worker started by {@link LocalEmbedderPool}, so this module serves when loaded in one. */
const ROLE = 'memoir-local-embedder';

/** One chunk of texts sent to a worker. */
interface EmbedRequest {
  id: number;
  texts: readonly string[];
  dimensions: number;
}

/** A worker's answer: the chunk's vectors end to end, or why it failed. */
interface EmbedReply {
  id: number;
  buffer?: ArrayBuffer;
  error?: string;
}

// In a worker this module started, answer requests; everywhere else this does nothing.
if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE) {
  const port = parentPort!;
  port.on('message', ({ id, texts, dimensions }: EmbedRequest) => {
    try {
      const out = new Float32Array(texts.length * dimensions);
      for (let i = 0; i < texts.length; i++) out.set(localEmbeddingOf(texts[i]!, dimensions), i * dimensions);
      port.postMessage({ id, buffer: out.buffer } satisfies EmbedReply, [out.buffer]);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies EmbedReply);
    }
  });
}

/**
 * The file a worker loads: this module (a source file, or the built chunk it is bundled into).
 * CommonJS builds have `__filename`; ES modules have `import.meta.url`.
 */
function thisModule(): string {
  if (typeof __filename === 'string' && __filename.length > 0) return __filename;
  return fileURLToPath(import.meta.url);
}

/** A worker and the requests it has not answered yet. */
interface PoolWorker {
  worker: Worker;
  pending: Map<number, { resolve: (vectors: Float32Array[]) => void; reject: (error: Error) => void; count: number }>;
}

/** Fewest texts worth a round trip to a worker; smaller calls (a recall's query) are embedded in place. */
export const POOL_MIN_TEXTS = 128;

/**
 * Worker threads embedding with {@link localEmbeddingOf}, so a large retain hashes its texts on
 * every core while the main thread writes the previous batch. Workers start on first use and
 * hold the process open only while they have work.
 */
export class LocalEmbedderPool {
  readonly #size: number;
  readonly #workers: PoolWorker[] = [];
  #nextId = 0;

  /** A pool of `size` workers (at least 1). */
  constructor(size: number) {
    this.#size = Math.max(1, Math.floor(size));
  }

  /** Vectors for `texts`, split evenly over the workers; identical to embedding them in place. */
  async embed(texts: readonly string[], dimensions: number, signal?: AbortSignal): Promise<Float32Array[]> {
    const workers = this.#started();
    const per = Math.ceil(texts.length / workers.length);
    const chunks: Array<Promise<Float32Array[]>> = [];
    for (let start = 0, index = 0; start < texts.length; start += per, index++) {
      chunks.push(this.#send(workers[index]!, texts.slice(start, start + per), dimensions, signal));
    }
    return (await Promise.all(chunks)).flat();
  }

  /** Stop every worker; a later `embed` starts new ones. */
  async close(): Promise<void> {
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }

  #started(): PoolWorker[] {
    while (this.#workers.length < this.#size) this.#workers.push(this.#spawn());
    return this.#workers;
  }

  #spawn(): PoolWorker {
    const file = thisModule();
    const workerData = { role: ROLE };
    // Run from sources (.ts: tests, benches), the worker loads this module through tsx's
    // require hook, a devDependency: Node 20 applies no --import loader hooks inside workers.
    const worker = file.endsWith('.ts')
      ? new Worker(
          `require(${JSON.stringify(createRequire(file).resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(file)});`,
          { eval: true, workerData },
        )
      : new Worker(file, { workerData });
    const entry: PoolWorker = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', ({ id, buffer, error }: EmbedReply) => {
      const job = entry.pending.get(id);
      if (!job) return;
      entry.pending.delete(id);
      if (entry.pending.size === 0) worker.unref();
      if (error !== undefined || !buffer) return job.reject(new Error(error ?? 'no vectors'));
      const all = new Float32Array(buffer);
      const size = all.length / Math.max(1, job.count);
      job.resolve(Array.from({ length: job.count }, (_, i) => all.slice(i * size, (i + 1) * size)));
    });
    const fail = (error: Error) => {
      // A dead worker is replaced on the next call; what it was doing fails now.
      const at = this.#workers.indexOf(entry);
      if (at >= 0) this.#workers.splice(at, 1);
      for (const job of entry.pending.values()) job.reject(error);
      entry.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`local embedder worker exited with code ${code}`)));
    return entry;
  }

  #send(entry: PoolWorker, texts: string[], dimensions: number, signal?: AbortSignal): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const onAbort = () => {
        entry.pending.delete(id);
        if (entry.pending.size === 0) entry.worker.unref();
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.pending.set(id, {
        count: texts.length,
        resolve: (vectors) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(vectors);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      entry.worker.ref();
      entry.worker.postMessage({ id, texts, dimensions } satisfies EmbedRequest);
    });
  }
}
