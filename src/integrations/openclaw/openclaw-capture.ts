import type { MemoryClient, MemorySkippedEvent } from '../../index.js';
import type { ParsedOpenClawConfig } from './openclaw-config.js';
import type { OpenClawLogger } from './openclaw-host-types.js';
import { splitByChars } from './openclaw-messages.js';
import type { CaptureBatch } from './openclaw-session-cursor.js';

// Retaining captured messages, off the agent's path. agent_end only hands batches to this
// queue and returns; batches run one at a time (so a session's batches keep their order and
// a slow model never runs many extractions at once), and a failure is logged, never thrown.

/** Counts of one retained batch. */
export interface CaptureOutcome {
  /** Memories extracted (created or merged into). */
  extracted: number;
  /** Episodes kept (the raw conversation, without a model or when extraction failed). */
  episodes: number;
  /** Runs that could not be stored at all. */
  failed: number;
}

/** Longest model reason quoted in a skip line. */
const MAX_REASON_CHARS = 300;

/**
 * A skipped candidate as a log line (seed 002: "SKIP -> log and discard"): what made it
 * redundant and the pipeline's reason, which for a model's SKIP is the model's own words.
 */
export function skipLine(skip: MemorySkippedEvent): string {
  const what = skip.reason === 'duplicate' ? `duplicate of ${skip.existingId ?? 'a stored memory'}` : skip.reason;
  const detail = skip.detail.replace(/\s+/g, ' ').trim();
  const cut = detail.length > MAX_REASON_CHARS ? `${detail.slice(0, MAX_REASON_CHARS)}…` : detail;
  return `memoir: skipped a memory (${what}): ${cut}`;
}

/** Retain one batch: split to `extractMaxChars`, one memoir call per part. */
export async function retainBatch(
  client: MemoryClient,
  batch: CaptureBatch,
  config: ParsedOpenClawConfig,
  logger: OpenClawLogger,
): Promise<CaptureOutcome> {
  const outcome: CaptureOutcome = { extracted: 0, episodes: 0, failed: 0 };
  for (const run of splitByChars(batch.messages, config.extractMaxChars)) {
    try {
      const result = await client.retain({
        messages: run.map((message) => ({
          role: message.role,
          content: message.content,
          ...(message.id ? { id: message.id } : {}),
          // The name the host knows the sender by reaches the extraction prompt (`user="…"`).
          ...(message.role === 'user' && batch.userName ? { name: batch.userName } : {}),
        })),
        scope: batch.scope,
        ...(batch.sessionId ? { sessionId: batch.sessionId } : {}),
      });
      outcome.episodes += result.episodeIds.length;
      outcome.extracted += result.memories.length - result.episodeIds.length + result.merged.length;
      for (const skip of result.skipped) logger.info(skipLine(skip));
      if (result.failure)
        logger.warn(`memoir: extraction failed, the conversation was kept as an episode: ${result.failure}`);
    } catch (error) {
      // memoir keeps the conversation as an episode whenever the model fails; only the store
      // itself failing ends here, and then there is nowhere to keep it.
      outcome.failed += run.length;
      logger.error(
        `memoir: could not store ${run.length} captured message(s): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return outcome;
}

/** A queue of capture batches, run one after another in the background. */
export class CaptureQueue {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;

  /**
   * @param run Retains one batch; its rejections are caught here.
   * @param logger Where failures go.
   */
  constructor(
    private readonly run: (batch: CaptureBatch) => Promise<void>,
    private readonly logger: OpenClawLogger,
  ) {}

  /** Queue a batch; returns at once. */
  push(batch: CaptureBatch): void {
    this.#pending++;
    this.#tail = this.#tail
      .then(() => this.run(batch))
      .catch((error: unknown) => {
        this.logger.error(`memoir: capture failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.#pending--;
      });
  }

  /** Batches queued or running. */
  get pending(): number {
    return this.#pending;
  }

  /** Resolve once every batch queued so far is done, or after `timeoutMs`, whichever is first. */
  async idle(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([this.#tail.then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
