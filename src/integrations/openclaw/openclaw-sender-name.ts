import type { OpenClawAgentContext } from './openclaw-host-types.js';
import { roleOf, textOf } from './openclaw-messages.js';

// The name the host knows a sender by, for the extraction prompt (seed 002:
// `buildExtractionPrompt(conversationText, user)`), so memories say "Alice prefers …" rather
// than "the user prefers …". OpenClaw 2026.9.6 puts no name in a hook's context itself; it
// lets channel plugins extend `channelContext.sender`, and for channel messages it writes a
// `Conversation info: ⟦openclaw:ctx⟧` JSON block before the user's text whose `sender` has
// `name` and `username`. A name is only a label in the prompt, never a scope: who owns the
// memories comes from ids alone (openclaw-identity.ts).

/** The marker OpenClaw appends to every context header it injects into an inbound message. */
const CONTEXT_MARKER = '⟦openclaw:ctx⟧';
const CONVERSATION_INFO = new RegExp(
  `^\\s*Conversation info:\\s*${CONTEXT_MARKER}\\s*\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``,
  'm',
);
/** Longest name passed on; a longer one is not a name. */
const MAX_NAME_CHARS = 128;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A usable name: one line of visible text, bounded; else undefined. */
function cleanName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return name !== '' && name.length <= MAX_NAME_CHARS ? name : undefined;
}

function nameOfSender(sender: unknown): string | undefined {
  if (!isRecord(sender)) return undefined;
  return cleanName(sender.name) ?? cleanName(sender.displayName) ?? cleanName(sender.username);
}

/** The sender's name in OpenClaw's `Conversation info` block of one message, if it has one. */
export function conversationInfoName(text: string): string | undefined {
  const block = CONVERSATION_INFO.exec(text)?.[1];
  if (block === undefined) return undefined;
  try {
    const info: unknown = JSON.parse(block);
    return isRecord(info) ? nameOfSender(info.sender) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sender's name for this run: the channel context's sender, else the `Conversation info`
 * block of the newest user message (the run's request); undefined when the host knows none.
 */
export function senderNameOf(ctx: OpenClawAgentContext, transcript: readonly unknown[]): string | undefined {
  const fromContext = nameOfSender(ctx.channelContext?.sender);
  if (fromContext) return fromContext;
  const request = transcript.findLast((message) => roleOf(message) === 'user');
  return request === undefined ? undefined : conversationInfoName(textOf(request));
}
