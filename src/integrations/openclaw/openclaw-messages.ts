import { randomBytes } from 'node:crypto';
import { messageParts } from './openclaw-message-parts.js';

// OpenClaw's transcript messages (pi-agent messages) as memoir reads them. A message is
// `{ role, content }` where content is a string or an array of parts; only `text` parts are
// words someone said. Tool calls, tool results, thinking and images are not captured: the
// plugin learns from what the user and the assistant said, not from tool output it cannot
// vouch for.

/** A message the plugin captures. */
export interface CapturedMessage {
  /** Who said it. */
  role: 'user' | 'assistant';
  /** What was said, with injected context removed. */
  content: string;
  /** The host's id of the message, when it has one. */
  id?: string;
  /**
   * Set on lines of other group members the host bundled into this user message: they are
   * not the run's sender's words, and are kept in the chat's shared pool.
   */
  bundled?: true;
}

/** The tag of the block memoir puts before prompts. */
export const EXPERIENCE_TAG = 'agent-experience';

/**
 * A random token of this process, carried by every block memoir injects
 * (`<agent-experience nonce="…">`). Only blocks that carry it are stripped from captured
 * messages: a user who types `<agent-experience>` themselves keeps their words. Module-wide,
 * so a plugin registered again (a config reload) still recognises the blocks it injected.
 */
export const INJECTION_NONCE = randomBytes(12).toString('base64url');

/** The opening tag of memoir's injected block. */
export const EXPERIENCE_OPEN = `<${EXPERIENCE_TAG} nonce="${INJECTION_NONCE}">`;

// memoir's own block, anywhere in a message. Memory text inside it is escaped (`<` becomes
// `&lt;`), so the closing tag cannot occur inside it.
const MEMOIR_BLOCK = new RegExp(`${EXPERIENCE_OPEN}[\\s\\S]*?</${EXPERIENCE_TAG}>`, 'g');

// Context other plugins and the host put before the prompt (memory-lancedb's block, OpenClaw's
// internal context), after the host's `[timestamp]`. Injected blocks persist in the transcript
// on some hosts (2026.1–2 prepend them to the stored user message), and capturing them would
// store recalled memories again as if the user had said them. They carry no token memoir can
// check, so they are stripped only where hosts put them — at the start of the message — and a
// look-alike the user typed later in the message stays.
const LEADING_FOREIGN_BLOCK =
  /^\s*(?:\[[^\]\n]{1,80}\]\s*)?(?:<relevant-memories>[\s\S]*?<\/relevant-memories>|<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>[\s\S]*?<<<END_OPENCLAW_INTERNAL_CONTEXT>>>)/;

/** `text` with the injected context blocks removed and, where one was, the whitespace tidied. */
export function stripInjectedContext(text: string): string {
  let stripped = text.replace(MEMOIR_BLOCK, '');
  for (let match = LEADING_FOREIGN_BLOCK.exec(stripped); match; match = LEADING_FOREIGN_BLOCK.exec(stripped)) {
    stripped = stripped.slice(match[0].length);
  }
  if (stripped === text) return text.trim();
  // The host prefixes injected context with a timestamp (`[Mon 2026-11-23 20:01 UTC] <block>`),
  // which is left dangling once the block is gone.
  return stripped
    .replace(/^\s*\[[^\]\n]{1,80}\]\s*(?=\n|$)/, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// In a group, the host hands the triggering sender's run the other members' messages that did
// not trigger one, inside the same user message: a `[Chat messages since your last reply - for
// context]` section, then `[Current message - respond to this]` and the sender's own message.
// Only what follows the last marker is the sender's (a history line may carry a spoofed one).
const BUNDLED_HISTORY = /^\s*(?:\[[^\]\n]{1,80}\]\s+)?\[Chat messages since your last reply - for context\]/;
const CURRENT_MESSAGE = '[Current message - respond to this]';

/** A user message's own words, and the other members' lines the host bundled before them. */
export function splitBundledHistory(content: string): { bundled: string; own: string } {
  if (!BUNDLED_HISTORY.test(content)) return { bundled: '', own: content };
  const at = content.lastIndexOf(CURRENT_MESSAGE);
  if (at < 0) return { bundled: content, own: '' };
  return { bundled: content.slice(0, at).trim(), own: content.slice(at + CURRENT_MESSAGE.length).trim() };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The role of a transcript message, or undefined when it has none. */
export function roleOf(message: unknown): string | undefined {
  return isRecord(message) && typeof message.role === 'string' ? message.role : undefined;
}

/** The text of a message: its string content, or its `text` parts joined. */
export function textOf(message: unknown): string {
  if (!isRecord(message)) return '';
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n');
}

function idOf(message: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'idempotencyKey', 'responseId']) {
    const value = message[key];
    if (typeof value === 'string' && value.length > 0 && value.length <= 256) return value;
  }
  return undefined;
}

/**
 * The messages worth capturing: user messages, and assistant messages when
 * `captureAssistant`, as their text with injected context removed; empty ones are left out,
 * one longer than memoir takes in a message becomes its ordered parts, and the other members'
 * lines a group host bundled into a user message are marked `bundled`.
 */
export function capturableMessages(messages: readonly unknown[], captureAssistant: boolean): CapturedMessage[] {
  const captured: CapturedMessage[] = [];
  for (const message of messages) {
    const role = roleOf(message);
    if (role !== 'user' && !(captureAssistant && role === 'assistant')) continue;
    const content = stripInjectedContext(textOf(message));
    if (content === '') continue;
    const id = idOf(message as Record<string, unknown>);
    const { bundled, own } = role === 'user' ? splitBundledHistory(content) : { bundled: '', own: content };
    // A message too long for one retain call is kept in ordered parts, never dropped.
    if (bundled !== '') {
      for (const part of messageParts(bundled, id && `${id}#bundled`, timestampOf(message))) {
        captured.push({ role, ...part, bundled: true });
      }
    }
    if (own === '') continue;
    for (const part of messageParts(own, id, timestampOf(message))) captured.push({ role, ...part });
  }
  return captured;
}

/**
 * A message's identity in a transcript: role, timestamp and the start of its text. The
 * session cursor compares it to find where it stopped after the host rewrote the transcript.
 */
export function fingerprintOf(message: unknown): string {
  const timestamp = isRecord(message) && typeof message.timestamp === 'number' ? message.timestamp : '';
  return `${roleOf(message) ?? '?'}|${timestamp}|${textOf(message).slice(0, 200)}`;
}

/** The timestamp a message carries (ms), when it has one. */
export function timestampOf(message: unknown): number | undefined {
  return isRecord(message) && typeof message.timestamp === 'number' ? message.timestamp : undefined;
}

/**
 * Split messages into runs whose transcript (`role: content`, one line each) fits `maxChars`,
 * keeping every message whole: a run longer than the cap is extracted in parts instead of
 * being cut. A single message longer than the cap is a run of its own.
 */
export function splitByChars(messages: readonly CapturedMessage[], maxChars: number): CapturedMessage[][] {
  const runs: CapturedMessage[][] = [];
  let current: CapturedMessage[] = [];
  let used = 0;
  for (const message of messages) {
    const size = message.role.length + 2 + message.content.length + 1;
    if (current.length > 0 && used + size > maxChars) {
      runs.push(current);
      current = [];
      used = 0;
    }
    current.push(message);
    used += size;
  }
  if (current.length > 0) runs.push(current);
  return runs;
}
