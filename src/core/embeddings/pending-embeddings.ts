import type { MemoryEngine } from '../engine/memory-engine.js';
import { MemoirError, ProviderError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';
import { embeddingText } from '../text/memory-text.js';
import { memoryPages, PAGE_SIZE } from '../utils/pages.js';

// A memory "pending" an embedding is simply one the store holds no embedding for: the store
// itself is the queue, so it survives a restart, and memories imported or restored from
// another embedder are healed the same way. No marker, no port member.

const COMPONENT = 'embedPending';
/** Failures in a row after which the embedder counts as down rather than refusing single texts. */
const DOWN_AFTER = 3;

/** One background pass: when it began (in deferrals) and whether the embedder has answered since. */
interface Pass {
  startedAt: number;
  answered: boolean;
}

/** What {@link PendingEmbeddings.embedOrDefer} resolves to. */
export interface EmbedAttempt {
  /** One vector per text, or all null when the embedder failed. */
  vectors: Array<Float32Array | null>;
  /** The embedder's failure, when it failed. */
  failure: MemoirError | null;
}

/** What a pass over the scope did. */
export interface PendingPassResult {
  /** Memories that got their embedding. */
  embedded: number;
}

/**
 * Memories stored without an embedding, embedded later. Retain stores text even when the
 * embedder is down; this finds such memories (of the client's scope) and embeds them in the
 * background after the store first opens and once the embedder answers again, and in the
 * foreground for `reindex({ onlyMissing: true })`. Background failures are `error` events.
 */
export interface PendingEmbeddings {
  /** Embed through the engine; when the embedder fails, resolve to nulls and the failure instead of rejecting. */
  embedOrDefer(texts: readonly string[], component: string): Promise<EmbedAttempt>;
  /** Announce memories stored without an embedding (`embedding:deferred`); a pass is due once the embedder answers. */
  defer(ids: readonly string[], reason: string): void;
  /** Note that some memories may lack an embedding (e.g. after a failed reindex), without an event. */
  arm(): void;
  /** Memories were stored to be embedded in the background (an embedder that asks for it): start a pass, quietly. */
  later(): void;
  /**
   * Embed every memory of the scope that lacks an embedding, now; rejects when the embedder
   * fails. `onProgress` gets the memories looked at so far and the scope's total.
   */
  complete(options?: {
    batchSize?: number;
    onProgress?: (done: number, total: number) => void;
  }): Promise<PendingPassResult>;
}

const registry = new WeakMap<MemoryEngine, PendingEmbeddings>();

/** The pending-embedding queue of an engine: one per engine, shared by retain, reindex and stats. */
export function pendingEmbeddings(engine: MemoryEngine): PendingEmbeddings {
  let pending = registry.get(engine);
  if (!pending) {
    pending = createPendingEmbeddings(engine);
    registry.set(engine, pending);
  }
  return pending;
}

/** Where a pass goes on: an offset into all memories, or the last id of the unembedded ones. */
interface Cursor {
  offset: number;
  after: string | undefined;
}

function createPendingEmbeddings(engine: MemoryEngine): PendingEmbeddings {
  const { store } = engine;
  // `due`: something may lack an embedding. `deferrals` counts announcements, so a pass that
  // began before one cannot clear `due` for it.
  let due = false;
  let deferrals = 0;
  let queued = false;
  // Memories whose text this embedder refused alone while it embedded others: retried on the next open only.
  const refused = new Set<string>();
  const filter = (): MemoryFilter | undefined => (engine.scope ? { scope: engine.scope } : undefined);
  // What an earlier process stored without an embedding is found by a pass once the store opens.
  engine.onOpen(() => schedule(false));

  /**
   * Embed the page's memories that lack an embedding. In a background pass, `down` says the
   * embedder looks down (rather than refusing single texts); without a pass (reindex) any
   * failure rejects.
   */
  async function embedPage(page: Memory[], pass: Pass | null): Promise<{ embedded: number; down: MemoirError | null }> {
    const have = await store.getEmbeddings(page.map((memory) => memory.id));
    const missing = page.filter((memory) => !have.has(memory.id) && (pass === null || !refused.has(memory.id)));
    if (missing.length === 0) return { embedded: 0, down: null };
    const texts = missing.map(embeddingText);
    const vectors = new Map<string, Float32Array>();
    try {
      for (const [index, vector] of (await engine.embed(texts, COMPONENT)).entries()) {
        vectors.set(missing[index]!.id, vector);
      }
      if (pass) pass.answered = true;
    } catch (error) {
      if (pass === null) throw error;
      const down = await oneByOne(missing, texts, vectors, pass);
      if (down) return { embedded: 0, down: asMemoirError(error) };
    }
    return { embedded: await write(missing, texts, vectors), down: null };
  }

  /**
   * After a failed batch: one text the service refuses (too long, say) must not hold up the
   * rest, nor be retried on every retain. Texts are tried alone; a failure counts as a
   * refusal only once the embedder has answered in this pass (or just before it), and three
   * failures in a row mean it is down. Resolves true when it is down.
   */
  async function oneByOne(
    missing: Memory[],
    texts: string[],
    vectors: Map<string, Float32Array>,
    pass: Pass,
  ): Promise<boolean> {
    const failed: string[] = [];
    let inARow = 0;
    for (const [index, memory] of missing.entries()) {
      // Closing aborts embedder calls: stop rather than count each abort as a refusal.
      if (engine.closed) return true;
      try {
        const [vector] = await engine.embed([texts[index]!], COMPONENT);
        if (vector) vectors.set(memory.id, vector);
        pass.answered = true;
        inARow = 0;
      } catch {
        failed.push(memory.id);
        if (++inARow >= DOWN_AFTER) return true;
      }
    }
    if (!pass.answered) return true;
    for (const id of failed) refused.add(id);
    return false;
  }

  async function write(missing: Memory[], texts: string[], vectors: Map<string, Float32Array>): Promise<number> {
    if (vectors.size === 0) return 0;
    return store.transaction(async () => {
      // Read again inside the write: a memory changed, deleted or embedded since the page was
      // read keeps what it has (writing the page's copy would undo an update or revive a deletion).
      const ids = [...vectors.keys()];
      const current = await store.getMemories(ids);
      const embeddedMeanwhile = await store.getEmbeddings(ids);
      const textOf = new Map(missing.map((memory, index) => [memory.id, texts[index]]));
      const records = current
        .filter((memory) => !embeddedMeanwhile.has(memory.id) && embeddingText(memory) === textOf.get(memory.id))
        .map((memory) => ({ memory, embedding: vectors.get(memory.id)! }));
      if (records.length > 0) await store.upsertMemories(records);
      return records.length;
    });
  }

  // A page of candidates: straight from the store when it can list unembedded memories
  // (keyset by id), else every memory by creation order.
  async function readPage(cursor: Cursor): Promise<{ page: Memory[]; next: Cursor }> {
    if (store.listUnembedded) {
      const page = await store.listUnembedded({
        filter: filter(),
        limit: PAGE_SIZE,
        ...(cursor.after === undefined ? {} : { after: cursor.after }),
      });
      return { page, next: { offset: 0, after: page.at(-1)?.id } };
    }
    const page = await store.listMemories({
      filter: filter(),
      orderBy: 'createdAt',
      direction: 'asc',
      limit: PAGE_SIZE,
      offset: cursor.offset,
    });
    return { page, next: { offset: cursor.offset + page.length, after: undefined } };
  }

  // One page per queued job, so a long pass never holds up the agent's own background work.
  function runPage(cursor: Cursor, pass: Pass): void {
    engine.background(COMPONENT, async () => {
      if (engine.closed) {
        queued = false;
        return;
      }
      try {
        const { page, next } = await readPage(cursor);
        const { down } = await embedPage(page, pass);
        // Still down: wait for the next sign of life (a successful embed) or the next open.
        if (down) throw down;
        if (page.length === PAGE_SIZE) return runPage(next, pass);
        queued = false;
        due = deferrals !== pass.startedAt;
        // Announced while this pass ran: their page may have been read before they were written.
        if (due) schedule(false);
      } catch (error) {
        queued = false;
        due = true;
        throw error;
      }
    });
  }

  function schedule(answered: boolean): void {
    if (queued || engine.closed) return;
    queued = true;
    runPage({ offset: 0, after: undefined }, { startedAt: deferrals, answered });
  }

  return {
    async embedOrDefer(texts, component) {
      try {
        const vectors = await engine.embed(texts, component);
        // The embedder answers: a good moment to embed what it could not before.
        if (due) schedule(true);
        return { vectors, failure: null };
      } catch (error) {
        return { vectors: texts.map(() => null), failure: asMemoirError(error) };
      }
    },
    defer(ids, reason) {
      if (ids.length === 0) return;
      due = true;
      deferrals += 1;
      engine.logger.log('warn', `${ids.length} memor${ids.length === 1 ? 'y' : 'ies'} stored without an embedding`, {
        reason,
      });
      engine.emit('embedding:deferred', { ids: [...ids], reason });
    },
    arm() {
      due = true;
      deferrals += 1;
    },
    later() {
      due = true;
      deferrals += 1;
      schedule(true);
    },
    async complete(options = {}) {
      const batchSize = options.batchSize ?? PAGE_SIZE;
      const startedAt = deferrals;
      const total = options.onProgress ? await store.countMemories(filter()) : 0;
      let embedded = 0;
      let seen = 0;
      for await (const page of memoryPages(store, filter(), batchSize)) {
        embedded += (await embedPage(page, null)).embedded;
        seen += page.length;
        options.onProgress?.(Math.min(total, seen), total);
      }
      refused.clear();
      if (deferrals === startedAt) due = false;
      return { embedded };
    },
  };
}

function asMemoirError(error: unknown): MemoirError {
  if (MemoirError.isInstance(error)) return error;
  return new ProviderError(error instanceof Error ? error.message : String(error), {
    component: COMPONENT,
    cause: error,
  });
}
