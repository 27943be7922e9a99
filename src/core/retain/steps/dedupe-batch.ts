import type { MemorySkippedEvent } from '../../engine/events.js';
import { ValidationError } from '../../spec/errors.js';
import type { Memory } from '../../spec/memory.js';
import type { MemoryRecord } from '../../spec/store.js';
import type { CoreStore } from '../../store/store-facade.js';

/** What the batch keeps after duplicates are skipped. */
export interface DedupedBatch {
  /** One id per input: the new memory's, or the one it duplicates. */
  resultIds: string[];
  /** The records to write. */
  records: MemoryRecord[];
  /** The inputs skipped as duplicates. */
  skipped: MemorySkippedEvent[];
}

/**
 * Skip the memories identical to a valid stored one (or to an earlier one of the batch),
 * unless `keepAll`, or the input is a turn (`isTurn`: "ok" said twice is two turns). An input
 * whose own id names a different stored memory is a ValidationError. Runs inside the write's
 * transaction.
 */
export async function dedupeBatch(
  store: CoreStore,
  batch: {
    memories: readonly Memory[];
    vectors: ReadonlyArray<Float32Array | null>;
    seenIds: ReadonlySet<string>;
    keepAll: boolean;
    isTurn: ((index: number) => boolean) | undefined;
    now: string;
  },
): Promise<DedupedBatch> {
  const { memories, vectors, seenIds, keepAll, isTurn, now } = batch;
  // Only inputs that bring their own id can clash with a stored memory.
  const claimed = seenIds.size > 0 ? await store.getMemories([...seenIds]) : [];
  const taken = new Map(claimed.map((memory) => [memory.id, memory]));
  const duplicates = new Map<string, string>();
  const skips = (index: number) => !keepAll && !(isTurn?.(index) ?? false);
  if (!keepAll) {
    const existing = await store.listMemories({
      filter: { fingerprints: [...new Set(memories.map((memory) => memory.fingerprint))], validAt: now },
    });
    for (const memory of existing) duplicates.set(memory.fingerprint, memory.id);
  }
  const records: MemoryRecord[] = [];
  const skipped: MemorySkippedEvent[] = [];
  const resultIds = memories.map((memory, index) => {
    const clash = taken.get(memory.id);
    if (clash && clash.fingerprint !== memory.fingerprint) {
      throw new ValidationError(
        [{ field: `input[${index}].id`, message: `a different memory with id "${memory.id}" already exists` }],
        { component: 'retain', suggestion: 'Use update() to change an existing memory.' },
      );
    }
    const duplicateOf = clash?.id ?? (skips(index) ? duplicates.get(memory.fingerprint) : undefined);
    if (duplicateOf !== undefined) {
      skipped.push({
        index,
        reason: 'duplicate',
        detail: `identical to memory ${duplicateOf}`,
        existingId: duplicateOf,
      });
      return duplicateOf;
    }
    if (skips(index)) duplicates.set(memory.fingerprint, memory.id);
    records.push({ memory, embedding: vectors[index] ?? null });
    return memory.id;
  });
  return { resultIds, records, skipped };
}
