import type { Scope } from '../../core/spec/memory.js';
import type { OpenClawAgentContext, OpenClawSessionContext, OpenClawToolContext } from './openclaw-host-types.js';
import { boundedId, escapeIdPart, scopeIdOf } from './openclaw-scope-id.js';

// Who a memory belongs to, read from the context of the call alone — never from what an
// earlier hook or another sender's turn left behind. Every memory carries the agent and a user:
// - `sender:<channel>:<id>`: the person who sent the message (the channel is part of it: the
//   same id on two channels is two people);
// - `chat:<channel>:<id>`: a direct chat whose sender the host does not name (its peer);
// - `group:<channel>:<id>`: a group or channel chat whose sender the host does not name. This
//   is a shared pool, not a person: turns are stored there so nothing is lost, but it is never
//   recalled into a prompt or opened to a tool, because anyone in the group could be asking;
// - `local`: neither a sender nor a chat (the operator at the CLI, a cron job).
// memoir's scope filter requires every field to match, so one sender's memories never reach
// another's prompt. Ids are mapped injectively and bounded (openclaw-scope-id.ts).

/** The user id of turns with neither a sender nor a chat. */
export const LOCAL_USER = 'local';

/** The scope a call runs in, and whether it is one person's. */
export interface Identity {
  /** Where its memories are read and written. */
  scope: Scope;
  /**
   * True for a sender, a direct chat's peer or the operator: recall may inject the scope's
   * memories and tools may use it. False for a group's shared pool (sender unknown).
   */
  personal: boolean;
}

// An id as the host gave it: never trimmed or folded (`alice` and `alice ` are two ids, and
// mapping them together would let one pose as the other); blank means absent; a number (a
// host passing a numeric chat or user id) is the same id as its digits.
function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The agent of a session key `agent:<agentId>:…` (2026.1.x hosts set a wrong ctx.agentId). */
export function agentOfSessionKey(sessionKey: string | undefined): string | undefined {
  const match = /^agent:([^:]+):/.exec(sessionKey ?? '');
  return match?.[1];
}

/** The agent a hook or tool runs for: the session key's, else ctx.agentId, else `main`; as a scope id. */
export function agentIdOf(ctx: { agentId?: string; sessionKey?: string }): string {
  return boundedId(escapeIdPart(agentOfSessionKey(ctx.sessionKey) ?? text(ctx.agentId) ?? 'main'));
}

/**
 * True when the session key names a group or channel chat (`agent:<id>:<channel>:group:<id>`,
 * `…:channel:<id>`): a session several people write to. A DM whose peer id happens to be
 * `group` is taken for a group too, which only makes it more careful.
 */
export function isGroupSession(sessionKey: string | undefined): boolean {
  const rest = /^agent:[^:]+:(.+)$/.exec(sessionKey ?? '')?.[1];
  return rest?.split(':').some((part) => part === 'group' || part === 'channel') ?? false;
}

const withChannel = (channel: string | undefined, id: string) => (channel ? [channel, id] : [id]);

function senderIdentity(agentId: string, channel: string | undefined, sender: string): Identity {
  return { scope: { agentId, userId: scopeIdOf('sender', withChannel(channel, sender)) }, personal: true };
}

function groupIdentity(agentId: string, channel: string | undefined, chat: string): Identity {
  return { scope: { agentId, userId: scopeIdOf('group', withChannel(channel, chat)) }, personal: false };
}

/** A hook's identity, with the pool of its chat. */
export interface HookIdentity extends Identity {
  /**
   * The chat's shared pool (`group:…`): where lines of other members that the host bundles
   * into this turn are kept. Never recalled into a prompt, never opened to a tool.
   */
  pool: Scope;
}

// The tool and the hook of one turn must reach the same scope, though the host builds their
// contexts apart (2026.9.6): the tool gets `messageChannel` (the channel, lower-cased) and
// `deliveryContext.to` (the run's target as given: `messageTo`, else the current channel id);
// the hook gets `channel`/`messageProvider` (the channel as given) and `channelId` = `chatId`
// (the conversation: the target with a `user:`/`dm:`/`<channel>:`… prefix stripped). Both are
// brought to one form here: the channel lower-cased, the chat without its target prefixes.

// The prefixes the host strips from a target to name its conversation (hook-agent-context).
const TARGET_PREFIXES = new Set(['channel', 'chat', 'direct', 'dm', 'group', 'thread', 'user']);

/** A channel's name in one form: hosts lower-case it for tools, not for hooks. */
function channelName(value: unknown): string | undefined {
  return text(value)?.trim().toLowerCase() || undefined;
}

/** A chat's id without the target prefixes (`user:`, `dm:`, `<channel>:`, …) the host strips for hooks. */
function chatIdOf(value: unknown, channel: string | undefined): string | undefined {
  let id = text(value);
  for (;;) {
    const separator = id?.indexOf(':') ?? -1;
    if (id === undefined || separator === -1) return id;
    const prefix = id.slice(0, separator).trim().toLowerCase();
    const rest = id.slice(separator + 1);
    if (rest.trim() === '' || !(TARGET_PREFIXES.has(prefix) || prefix === channel)) return id;
    id = rest.trim() === rest ? rest : rest.trim();
  }
}

/** The scope of a hook's memories (recall and capture), from the hook's own context. */
export function identityOfHook(ctx: OpenClawAgentContext): HookIdentity {
  const agentId = agentIdOf(ctx);
  // The channel is `channel`, else the provider. `channelId` names it only on hosts that send no
  // `chatId` (2026.2–2026.8); 2026.9 fills both with the conversation (the CLI's `--to` target).
  const chatGiven = text(ctx.chatId) !== undefined;
  const channel =
    channelName(ctx.channel) ??
    channelName(ctx.messageProvider) ??
    (chatGiven ? undefined : channelName(ctx.channelId));
  // 2026.9 hosts fill chatId with the channel's name when a run has no conversation (the CLI
  // may name its target as the channel): it is still kept apart from every other chat.
  const chat = chatIdOf(text(ctx.chatId) ?? text(ctx.conversationId) ?? text(ctx.channelContext?.chat?.id), channel);
  const group = groupIdentity(agentId, channel, chat ?? text(ctx.sessionKey) ?? 'unknown');
  const sender = text(ctx.senderId) ?? text(ctx.requesterSenderId) ?? text(ctx.channelContext?.sender?.id);
  if (sender) return { ...senderIdentity(agentId, channel, sender), pool: group.scope };
  if (ctx.isGroup === true || isGroupSession(ctx.sessionKey)) return { ...group, pool: group.scope };
  const pool = group.scope;
  if (chat) return { scope: { agentId, userId: scopeIdOf('chat', withChannel(channel, chat)) }, personal: true, pool };
  return { scope: { agentId, userId: LOCAL_USER }, personal: true, pool };
}

/**
 * The scope of a tool call, from the tool's own context: its sender (`requesterSenderId`);
 * without one, in a group session, the group's shared pool (which the tools refuse: see
 * `personal`); else the chat the run replies to; else `local` — the scope the same turn's hook
 * resolves (see above).
 */
export function identityOfTool(ctx: OpenClawToolContext): Identity {
  const agentId = agentIdOf(ctx);
  const channel = channelName(ctx.messageChannel);
  const sender = text(ctx.requesterSenderId);
  if (sender) return senderIdentity(agentId, channel, sender);
  if (isGroupSession(ctx.sessionKey)) return groupIdentity(agentId, channel, text(ctx.sessionKey) ?? 'unknown');
  const to = chatIdOf(ctx.deliveryContext?.to, channel);
  if (to) return { scope: { agentId, userId: scopeIdOf('chat', withChannel(channel, to)) }, personal: true };
  return { scope: { agentId, userId: LOCAL_USER }, personal: true };
}

/** The key of a session's capture cursor: the agent and the session, unambiguously joined. */
export function sessionKeyOf(ctx: OpenClawAgentContext | OpenClawSessionContext): string {
  return JSON.stringify([agentIdOf(ctx), ctx.sessionKey ?? ctx.sessionId ?? 'default']);
}

/** The host's session id as memoir records it on memories: bounded, never cut. */
export function recordedSessionId(sessionId: string | undefined): string | undefined {
  return sessionId ? boundedId(escapeIdPart(sessionId)) : undefined;
}
