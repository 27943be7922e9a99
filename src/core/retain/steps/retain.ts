import { conversationInputSchema, isConversationInput } from '../../conversation/conversation-input.js';
import type { MemoryEngine } from '../../engine/memory-engine.js';
import { scopeForWrite } from '../../search/scope-boundary.js';
import { parseInput } from '../../utils/validate.js';
import {
  type ConversationContext,
  type ConversationRetainResult,
  retainConversation,
} from '../conversation/retain-conversation.js';
import type { RetainResult } from '../retain-options.js';
import type { RetainContext } from './retain-context.js';
import { retainMemories } from './retain-memories.js';

/** A conversation lands in the client's scope, narrowed by its own; another tenant's is refused. */
export function parseConversation(engine: MemoryEngine, input: unknown, component: string) {
  const conversation = parseInput(conversationInputSchema, input, component, 'input');
  return { ...conversation, scope: scopeForWrite(engine.scope, conversation.scope, 'input.scope', component) };
}

/** `retain`: a conversation goes through the conversation pipeline, anything else is one memory or a batch. */
export async function retain(
  ctx: RetainContext,
  conversationContext: ConversationContext,
  input: unknown,
  retainOptions?: unknown,
): Promise<RetainResult | ConversationRetainResult> {
  if (isConversationInput(input)) {
    const conversation = parseConversation(ctx.engine, input, 'retain');
    await ctx.engine.ready('retain');
    return retainConversation(conversation, conversationContext);
  }
  return retainMemories(ctx, input, retainOptions);
}
