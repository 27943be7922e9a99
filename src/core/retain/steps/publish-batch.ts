import type { RetainResult } from '../retain-options.js';
import type { PreparedBatch } from './prepare-batch.js';
import type { RetainContext } from './retain-context.js';
import type { StoredBatch } from './store-batch.js';

/**
 * After the write: in a workspace the Markdown is the source of truth, so the new memories go
 * to their day's file and come back indexed from there (citing their line), and older ones
 * this retain changed (superseded, or a turn given its new neighbours) are rewritten there, so
 * a rebuilt index knows it too. Then the events, and the memories left without an embedding
 * queued for one.
 */
export async function publishBatch(
  ctx: RetainContext,
  outcome: StoredBatch,
  prepared: Pick<PreparedBatch, 'embedded' | 'later'>,
): Promise<RetainResult> {
  const { engine, settings, pending } = ctx;
  if (settings.journal) {
    outcome.memories = await settings.journal.retained(outcome.memories);
    await settings.journal.changed(outcome.changed);
    // What eviction deleted to make room leaves the files, or a rebuild would bring it back.
    await settings.journal.forgottenIds(outcome.evicted);
  }

  for (const skip of outcome.skipped) engine.emit('memory:skipped', skip);
  for (const link of outcome.links)
    engine.logger.log('debug', `retain: ${link.older} superseded by ${link.newer} (${link.reason})`);
  const { failure } = prepared.embedded;
  const unembedded = failure ? outcome.memories.map((memory) => memory.id) : [];
  if (failure) pending.defer(unembedded, failure.message);
  else if (prepared.later && outcome.memories.length > 0) pending.later();
  if (outcome.memories.length > 0) engine.emit('memory:retained', { memories: outcome.memories });
  const { links: _links, changed: _changed, evicted: _evicted, ...result } = outcome;
  return result;
}
