import { memoriesInScope } from '../../shared/require-memory.js';
import { parseInput } from '../../utils/validate.js';
import {
  keptConversations,
  type ReextractResult,
  reextractConversation,
  reextractTargetSchema,
  requireModel,
} from '../conversation/reextract.js';
import type { ConversationContext } from '../conversation/retain-conversation.js';
import type { RetainContext } from './retain-context.js';

/** `reextract`: extract again, with the current model, from each kept conversation of the target, and add up what changed. */
export async function reextract(
  ctx: RetainContext,
  conversationContext: ConversationContext,
  targetInput: unknown,
): Promise<ReextractResult> {
  const { engine } = ctx;
  const target = parseInput(reextractTargetSchema, targetInput, 'reextract', 'target');
  requireModel(conversationContext);
  await engine.ready('reextract');
  const conversations = await keptConversations(target, conversationContext, (ids) => memoriesInScope(engine, ids));
  const result: ReextractResult = {
    conversations: conversations.length,
    created: [],
    merged: [],
    invalidated: [],
    kept: [],
    skipped: [],
    failure: null,
  };
  for (const conversation of conversations) {
    const one = await reextractConversation(conversation, conversationContext);
    result.created.push(...one.created);
    result.merged.push(...one.merged);
    result.invalidated.push(...one.invalidated);
    result.kept.push(...one.kept);
    result.skipped.push(...one.skipped);
    result.failure ??= one.failure;
  }
  return result;
}
