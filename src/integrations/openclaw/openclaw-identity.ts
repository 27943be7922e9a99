import type { Scope } from '../../core/spec/memory.js';
import type { OpenClawAgentContext, OpenClawSessionContext, OpenClawToolContext } from './openclaw-host-types.js';

// Who a memory belongs to. Every memory the plugin writes carries the agent and a user: the
// sender when the channel names one, else the chat it came from (a DM's peer; a group's
// members share it), else `local` (the operator at the CLI or a cron job). Reads use the
// same scope, and memoir's scope filter requires every field to match, so one sender's
// memories never reach another's prompt, and nothing written for a sender leaks into
// operator turns or back.

/** The user id of turns with neither a sender nor a chat. */
export const LOCAL_USER = 'local';

const SCOPE_KEY_MAX = 256;
const clip = (value: string) => value.slice(0, SCOPE_KEY_MAX);

/** The agent of a session key `agent:<agentId>:…` (2026.1.x hosts set a wrong ctx.agentId). */
export function agentOfSessionKey(sessionKey: string | undefined): string | undefined {
  const match = /^agent:([^:]+):/.exec(sessionKey ?? '');
  return match?.[1];
}

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

/** The agent a hook or tool runs for: the session key's, else ctx.agentId, else `main`. */
export function agentIdOf(ctx: { agentId?: string; sessionKey?: string }): string {
  return clip(agentOfSessionKey(ctx.sessionKey) ?? nonEmpty(ctx.agentId) ?? 'main');
}

/** The user part of the scope: the sender, else the chat, else {@link LOCAL_USER}. */
export function userIdOf(ctx: OpenClawAgentContext): string {
  const sender = nonEmpty(ctx.senderId) ?? nonEmpty(ctx.channelContext?.sender?.id);
  if (sender) return clip(`sender:${sender}`);
  const chat = nonEmpty(ctx.chatId) ?? nonEmpty(ctx.channelContext?.chat?.id) ?? nonEmpty(ctx.channelId);
  if (chat) return clip(`chat:${chat}`);
  return LOCAL_USER;
}

/** The scope of a hook's memories. */
export function scopeOfHook(ctx: OpenClawAgentContext): Scope {
  return { agentId: agentIdOf(ctx), userId: userIdOf(ctx) };
}

/**
 * The scope of a tool call. A tool's context names the sender (`requesterSenderId`) but not
 * the chat, so without a sender the scope the hooks last resolved for the same session is
 * used (they run first in every turn), then the reply's destination, then `local`.
 */
export function scopeOfTool(ctx: OpenClawToolContext, sessionScope: Scope | undefined): Scope {
  if (ctx.requesterSenderId) return { agentId: agentIdOf(ctx), userId: userIdOf({ senderId: ctx.requesterSenderId }) };
  if (sessionScope) return sessionScope;
  return { agentId: agentIdOf(ctx), userId: userIdOf({ chatId: ctx.deliveryContext?.to }) };
}

/** The key of a session's capture cursor: the agent and the session. */
export function sessionKeyOf(ctx: OpenClawAgentContext | OpenClawSessionContext): string {
  return `${agentIdOf(ctx)}|${ctx.sessionKey ?? ctx.sessionId ?? 'default'}`;
}
