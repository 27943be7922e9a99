import type { EmbedAttempt } from '../../embeddings/pending-embeddings.js';
import { buildMemory } from '../../shared/memory-builder.js';
import type { Memory } from '../../spec/memory.js';
import type { Claim } from '../../supersession/claim.js';
import { batchClaims, loadClaimReader } from '../../supersession/find-supersessions.js';
import { embeddingText } from '../../text/memory-text.js';
import { correctionsByModel } from '../model-corrections.js';
import type { RetainOptions } from '../retain-options.js';
import type { ParsedRetainInput } from './parse-retain-input.js';
import type { RetainContext } from './retain-context.js';

/** A batch built and read, ready to be written. */
export interface PreparedBatch {
  /** The call's "now" (ISO). */
  now: string;
  /** One memory per input, built with a new id. */
  memories: Memory[];
  /** The claims the parser read in each memory, by id (none when corrections are only `marked`). */
  claims: Map<string, Claim[]> | undefined;
  /** Per memory, the ids the model says it supersedes (empty unless `corrections: 'model'`). */
  found: string[][];
  /** One vector per memory, null where there is none yet; and the embedder's failure, when it failed. */
  embedded: EmbedAttempt;
  /** True when the embedder embeds in the background, after the write. */
  later: boolean;
}

/**
 * Build the memories and read them before the write: the claims (while the embedder works),
 * the model's corrections when asked for, and the embeddings. An embedder that fails does
 * not lose the text: it is stored now and embedded later.
 */
export async function prepareBatch(
  ctx: RetainContext,
  inputs: readonly ParsedRetainInput[],
  correctionMode: NonNullable<RetainOptions['corrections']>,
): Promise<PreparedBatch> {
  const { engine } = ctx;
  const now = engine.nowIso();
  const sessionId = engine.session.current ?? undefined;
  const memories = inputs.map((item) =>
    buildMemory(item, { id: engine.ids.next('mem'), now, scope: engine.scope, sessionId }),
  );
  const reader = correctionMode !== 'marked' ? await loadClaimReader() : undefined;
  // The model is asked about what the parser leaves undecided: it needs the claims first.
  const readFirst = correctionMode === 'model' && reader ? batchClaims(memories, reader) : undefined;
  const found = readFirst ? await correctionsByModel(engine, memories, now, readFirst) : [];
  // A slow encoder embeds after the write, in the background; the text is stored now.
  const later = engine.embedder.background === true;
  const embedding = later
    ? Promise.resolve({ vectors: memories.map(() => null), failure: null })
    : ctx.pending.embedOrDefer(memories.map(embeddingText), 'retain');
  // Otherwise the parser reads the claims while the embedder works (off this thread when it has workers).
  const claims = readFirst ?? (reader ? batchClaims(memories, reader) : undefined);
  return { now, memories, claims, found, embedded: await embedding, later };
}
