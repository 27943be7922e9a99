import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { loadSentenceModel, type SentenceModel } from './sentence-encoder-model.js';

/** Marks a worker started by {@link SentenceEncoderPool}, so this module serves when loaded in one. */
const ROLE = 'memoir-sentence-encoder';

interface EncodeRequest {
  id: number;
  texts: string[];
}

interface EncodeReply {
  id: number;
  buffer?: ArrayBuffer;
  error?: string;
}

/** Length of the encoder's vectors. */
export const SENTENCE_ENCODER_DIMENSIONS = 512;

/** One model per thread; an empty text gets the zero vector, which matches nothing. */
export async function encode(model: SentenceModel, texts: readonly string[]): Promise<Float32Array> {
  const out = new Float32Array(texts.length * SENTENCE_ENCODER_DIMENSIONS);
  const filled = texts.flatMap((text, index) => (text.trim().length > 0 ? [index] : []));
  if (filled.length === 0) return out;
  const vectors = await model.embed(filled.map((index) => texts[index]!));
  vectors.forEach((vector, at) => {
    let norm = 0;
    for (const value of vector) norm += value * value;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const offset = filled[at]! * SENTENCE_ENCODER_DIMENSIONS;
    for (let i = 0; i < SENTENCE_ENCODER_DIMENSIONS; i++) out[offset + i] = (vector[i] ?? 0) * scale;
  });
  return out;
}

// In a worker this module started: load the model once, then answer requests in order.
if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE) {
  const port = parentPort!;
  const model = loadSentenceModel();
  let queue: Promise<unknown> = Promise.resolve();
  port.on('message', ({ id, texts }: EncodeRequest) => {
    queue = queue.then(async () => {
      try {
        const out = await encode(await model, texts);
        const buffer = out.buffer as ArrayBuffer;
        port.postMessage({ id, buffer } satisfies EncodeReply, [buffer]);
      } catch (error) {
        port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies EncodeReply);
      }
    });
  });
}

function thisModule(): string {
  if (typeof __filename === 'string' && __filename.length > 0) return __filename;
  return fileURLToPath(import.meta.url);
}

interface Job {
  count: number;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Job>;
  /** Texts sent and not answered: where the next chunk or query goes. */
  load: number;
}

/**
 * Worker threads, each holding one copy of the model. A batch is cut into small chunks spread
 * over the least-loaded workers, so a recall's query never waits behind more than one chunk
 * of a background pass. Workers start on first use and hold the process open only while they
 * have work.
 */
export class SentenceEncoderPool {
  readonly #size: number;
  readonly #chunk: number;
  readonly #workers: PoolWorker[] = [];
  #nextId = 0;

  constructor(size: number, chunk: number) {
    this.#size = Math.max(1, Math.floor(size));
    this.#chunk = Math.max(1, Math.floor(chunk));
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const chunks: Array<Promise<Float32Array[]>> = [];
    for (let start = 0; start < texts.length; start += this.#chunk) {
      chunks.push(this.#send(this.#leastLoaded(), texts.slice(start, start + this.#chunk)));
    }
    const all = Promise.all(chunks).then((parts) => parts.flat());
    if (!signal) return all;
    // One listener per call: the workers finish their chunks (their load counts until then), the caller stops waiting.
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      all.then(
        (vectors) => {
          signal.removeEventListener('abort', onAbort);
          resolve(vectors);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  async close(): Promise<void> {
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }

  #leastLoaded(): PoolWorker {
    if (this.#workers.length < this.#size && this.#workers.every((entry) => entry.load > 0)) {
      this.#workers.push(this.#spawn());
    }
    return this.#workers.reduce((best, entry) => (entry.load < best.load ? entry : best));
  }

  #spawn(): PoolWorker {
    const file = thisModule();
    const data = { role: ROLE };
    // From sources (tests, benches) the worker loads this module through tsx's require hook.
    const worker = file.endsWith('.ts')
      ? new Worker(
          `require(${JSON.stringify(createRequire(file).resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(file)});`,
          { eval: true, workerData: data },
        )
      : new Worker(file, { workerData: data });
    const entry: PoolWorker = { worker, pending: new Map(), load: 0 };
    worker.unref();
    worker.on('message', ({ id, buffer, error }: EncodeReply) => {
      const job = entry.pending.get(id);
      if (!job) return;
      this.#settle(entry, id, job);
      if (error !== undefined || !buffer) return job.reject(new Error(error ?? 'no vectors'));
      const all = new Float32Array(buffer);
      job.resolve(
        Array.from({ length: job.count }, (_, i) =>
          all.slice(i * SENTENCE_ENCODER_DIMENSIONS, (i + 1) * SENTENCE_ENCODER_DIMENSIONS),
        ),
      );
    });
    const fail = (error: Error) => {
      const at = this.#workers.indexOf(entry);
      if (at >= 0) this.#workers.splice(at, 1);
      for (const job of entry.pending.values()) job.reject(error);
      entry.pending.clear();
      entry.load = 0;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`sentence encoder worker exited with code ${code}`)));
    return entry;
  }

  #settle(entry: PoolWorker, id: number, job: Job): void {
    entry.pending.delete(id);
    entry.load -= job.count;
    if (entry.pending.size === 0) entry.worker.unref();
  }

  #send(entry: PoolWorker, texts: string[]): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      entry.pending.set(id, { count: texts.length, resolve, reject });
      entry.load += texts.length;
      entry.worker.ref();
      entry.worker.postMessage({ id, texts } satisfies EncodeRequest);
    });
  }
}
