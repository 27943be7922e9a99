import type { ParsedConversation } from '../../conversation/conversation-input.js';
import type { MemoryInput } from '../../spec/memory.js';

// Without a language model, a few statements are unambiguous enough to keep as facts on
// their own: a name, a home, an employer, likes and dislikes said in the first person.
const RULES: ReadonlyArray<{
  pattern: RegExp;
  category: 'profile' | 'preferences';
  sentence: (value: string) => string;
}> = [
  {
    pattern: /\b[Mm]y name is ([\p{Lu}][\p{L}'-]+(?: [\p{Lu}][\p{L}'-]+)?)/u,
    category: 'profile',
    sentence: (v) => `The user's name is ${v}.`,
  },
  {
    pattern: /\bI live in ([\p{Lu}][^.!?\n,;]{1,60})/u,
    category: 'profile',
    sentence: (v) => `The user lives in ${v}.`,
  },
  {
    pattern: /\bI work (?:at|for) ([\p{Lu}][^.!?\n,;]{1,60})/u,
    category: 'profile',
    sentence: (v) => `The user works at ${v}.`,
  },
  {
    pattern: /\bI (?:really |much )?(?:prefer|like|love|enjoy) ([^.!?\n]{3,100})/iu,
    category: 'preferences',
    sentence: (v) => `The user likes ${v}.`,
  },
  {
    pattern: /\bI (?:really )?(?:dislike|hate|can't stand|do not like|don't like) ([^.!?\n]{3,100})/iu,
    category: 'preferences',
    sentence: (v) => `The user dislikes ${v}.`,
  },
];

/** First-person statements by the user that can be kept as facts without a model. */
export function deterministicFacts(conversation: ParsedConversation): MemoryInput[] {
  const facts: MemoryInput[] = [];
  const seen = new Set<string>();
  for (const message of conversation.messages) {
    if (message.role !== 'user') continue;
    for (const rule of RULES) {
      const match = rule.pattern.exec(message.content);
      const value = match?.[1]?.trim();
      if (!value) continue;
      const content = rule.sentence(value);
      if (seen.has(content)) continue;
      seen.add(content);
      facts.push({
        content,
        kind: 'world',
        category: rule.category,
        metadata: { extractedBy: 'rule', ...(message.id ? { messageIds: [message.id] } : {}) },
      });
    }
  }
  return facts;
}
