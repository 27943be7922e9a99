import { TURN_WINDOW } from '../../conversation/session-turns.js';
import type { RetainResult } from '../retain-options.js';
import { ownIds, parseRetainInputs, parseRetainOptions } from './parse-retain-input.js';
import { prepareBatch } from './prepare-batch.js';
import { publishBatch } from './publish-batch.js';
import type { RetainContext } from './retain-context.js';
import { storeBatch } from './store-batch.js';

/**
 * How the conversation path marks its inputs: `turns` selects the inputs that are turns of the
 * conversation (windowed across calls with {@link TURN_WINDOW} neighbours, and kept even when
 * identical to a stored turn — "ok" said twice is two turns).
 */
export interface ConversationBatch {
  turns?: (index: number) => boolean;
}

/**
 * Retain one memory or a batch, step by step: parse (nothing is written if any input is
 * invalid), prepare (build, read claims, embed), store (one transaction), publish (the
 * workspace journal, events, embeddings left for later).
 */
export async function retainMemories(
  ctx: RetainContext,
  input: unknown,
  retainOptions?: unknown,
  conversation?: ConversationBatch,
): Promise<RetainResult> {
  const { engine } = ctx;
  const inputs = parseRetainInputs(input, engine.scope);
  const {
    onDuplicate,
    contextWindow,
    corrections: correctionMode,
  } = parseRetainOptions(retainOptions, Boolean(engine.languageModel));
  const seenIds = ownIds(inputs);
  await engine.ready('retain');
  const prepared = await prepareBatch(ctx, inputs, correctionMode);
  const isTurn = conversation?.turns;
  const window = isTurn !== undefined ? TURN_WINDOW : contextWindow;
  const outcome = await storeBatch(
    ctx,
    { input, inputs, seenIds, onDuplicate, correctionMode, window, isTurn },
    prepared,
  );
  return publishBatch(ctx, outcome, prepared);
}
