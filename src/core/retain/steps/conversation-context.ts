import type { ConversationContext } from '../conversation/retain-conversation.js';
import type { RetainContext } from './retain-context.js';
import { retainMemories } from './retain-memories.js';

/** What the conversation pipeline (retain of `{ messages }`, reextract) is given: the engine's parts, and retain's own batch path. */
export function conversationContextOf(ctx: RetainContext): ConversationContext {
  const { engine, settings, pending } = ctx;
  return {
    store: engine.store,
    embedder: engine.embedder,
    model: engine.languageModel,
    settings: settings.extraction,
    stats: engine.metrics.pipeline,
    logger: engine.logger,
    scope: engine.scope,
    get sessionId() {
      return engine.session.current ?? undefined;
    },
    now: engine.nowIso,
    newId: () => engine.ids.next('mem'),
    embed: (texts) => engine.embed(texts, 'retain'),
    retainMemories: (inputs, turns = 0) =>
      retainMemories(ctx, inputs, {}, turns > 0 ? { turns: (index) => index < turns } : undefined),
    deferEmbeddings: (ids, reason) => pending.defer(ids, reason),
    emit: engine.emit,
    ...(settings.journal ? { journal: settings.journal } : {}),
  };
}
