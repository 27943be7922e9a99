import type { MemorySkippedEvent } from '../../engine/events.js';
import { evictForRoom } from '../../retention/eviction.js';
import { applyTallies } from '../../shared/record-tallies.js';
import type { Memory } from '../../spec/memory.js';
import type { MemoryRecord } from '../../spec/store.js';
import { addNeighbourContext } from '../neighbour-context.js';
import type { RetainOptions } from '../retain-options.js';
import { dedupeBatch } from './dedupe-batch.js';
import type { ParsedRetainInput } from './parse-retain-input.js';
import type { PreparedBatch } from './prepare-batch.js';
import type { RetainContext } from './retain-context.js';
import { type BatchSupersessions, supersedeBatch } from './supersede-batch.js';

/** What one write stored and changed. */
export interface StoredBatch {
  /** One id per input: the new memory's, or the one it duplicates. */
  ids: string[];
  /** The memories stored by this call. */
  memories: Memory[];
  /** The inputs skipped as duplicates. */
  skipped: MemorySkippedEvent[];
  /** The links the supersession rules made. */
  links: BatchSupersessions['links'];
  /** Older memories this write changed (superseded, or a turn given new neighbours); listed only for a workspace journal. */
  changed: Memory[];
  /** Ids eviction deleted to make room. */
  evicted: string[];
}

/** How the write is asked to treat the batch. */
export interface WriteRequest {
  /** The call's input as given (for field names in errors). */
  input: unknown;
  inputs: readonly ParsedRetainInput[];
  /** Ids the inputs bring themselves. */
  seenIds: ReadonlySet<string>;
  onDuplicate: NonNullable<RetainOptions['onDuplicate']>;
  correctionMode: NonNullable<RetainOptions['corrections']>;
  /** Neighbours on either side each memory is indexed with (0: none). */
  window: number;
  /** The inputs that are turns of a conversation, when the batch is one. */
  isTurn: ((index: number) => boolean) | undefined;
}

/**
 * Write the batch in one transaction: neighbour context, duplicates skipped, supersession,
 * eviction to make room, the records and the tallies. Neighbours are read inside the
 * transaction, so a concurrent retain of the same session waits its turn.
 */
export async function storeBatch(
  ctx: RetainContext,
  request: WriteRequest,
  prepared: PreparedBatch,
): Promise<StoredBatch> {
  const { engine, settings } = ctx;
  const { store } = engine;
  const { memories, now } = prepared;
  return store.transaction(async () => {
    const neighbours =
      request.window > 0
        ? await addNeighbourContext(store, memories, request.inputs, request.window, request.isTurn ?? (() => true))
        : [];
    const { resultIds, records, skipped } = await dedupeBatch(store, {
      memories,
      vectors: prepared.embedded.vectors,
      seenIds: request.seenIds,
      keepAll: request.onDuplicate === 'keep',
      isTurn: request.isTurn,
      now,
    });
    const { links, changed } = await supersedeBatch(engine, {
      input: request.input,
      inputs: request.inputs,
      memories,
      records,
      claims: prepared.claims,
      found: prepared.found,
      correctionMode: request.correctionMode,
      now,
    });
    for (const record of neighbours) {
      const other = changed.get(record.memory.id);
      changed.set(
        record.memory.id,
        other ? { ...other, memory: { ...other.memory, context: record.memory.context } } : record,
      );
    }
    let evicted: string[] = [];
    if (records.length > 0) {
      if (settings.maxMemories !== undefined) {
        evicted = await evictForRoom(store, {
          maxMemories: settings.maxMemories,
          incoming: records.length,
          now: engine.clock.now(),
          appliesTo: settings.retentionAppliesTo,
          ...(engine.scope ? { scope: engine.scope } : {}),
        });
      }
      await store.upsertMemories([...records, ...changed.values()]);
      await applyTallies(
        store,
        records.map((record: MemoryRecord) => record.memory),
        1,
        now,
      );
    }
    return {
      ids: resultIds,
      memories: records.map((record) => record.memory),
      skipped,
      links,
      // Only a workspace journal rewrites them; no copy on the plain path.
      changed: settings.journal ? [...changed.values()].map((record) => record.memory) : [],
      evicted,
    };
  });
}
