import { type PendingEmbeddings, pendingEmbeddings } from '../../embeddings/pending-embeddings.js';
import type { MemoryEngine } from '../../engine/memory-engine.js';
import type { RetentionOrigin } from '../../retention/protection.js';
import type { WorkspaceJournal } from '../../workspace-format/workspace-journal.js';
import type { ParsedExtractionOptions } from '../conversation/extraction-options.js';

/** What retain needs from createMemory's options. */
export interface RetainSettings {
  /** Conversation pipeline settings. */
  extraction: ParsedExtractionOptions;
  /** Most memories to keep; storing beyond it evicts the lowest-ranked ones that may expire. */
  maxMemories: number | undefined;
  /** Which memories eviction may delete, by origin (as for cleanup). */
  retentionAppliesTo: readonly RetentionOrigin[];
  /** A workspace client's Markdown: what is retained is written there and indexed from it. */
  journal?: WorkspaceJournal;
}

/** What every retain step works with: the engine, the settings, and the queue of memories stored without an embedding. */
export interface RetainContext {
  readonly engine: MemoryEngine;
  readonly settings: RetainSettings;
  readonly pending: PendingEmbeddings;
}

/** The retain context over an engine. */
export function createRetainContext(engine: MemoryEngine, settings: RetainSettings): RetainContext {
  return { engine, settings, pending: pendingEmbeddings(engine) };
}
