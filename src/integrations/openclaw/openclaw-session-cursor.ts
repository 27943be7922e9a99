import type { Scope } from '../../core/spec/memory.js';
import { type CapturedMessage, capturableMessages, fingerprintOf, timestampOf } from './openclaw-messages.js';

// agent_end hands the plugin the session's whole transcript every turn. A cursor per session
// remembers how far it has read, so each message is captured once. A session may have several
// senders (a group chat; the shared DM session of `dmScope: "main"`), and each run's new
// messages belong to the sender of that run: they wait in that sender's own pending list until
// there are enough to extract from (`extractMinMessages`), and are stored under that sender's
// scope only. Whatever is still waiting when the session ends, resets or the gateway stops is
// flushed then, each sender's under its own scope, so nothing is lost and nothing is mixed.

/** Messages ready to be retained, and whose they are. */
export interface CaptureBatch {
  /** The session cursor's key. */
  sessionKey: string;
  /** The host's session id, recorded on the memories. */
  sessionId: string | undefined;
  /** Who the memories belong to. */
  scope: Scope;
  /** The messages, oldest first. */
  messages: CapturedMessage[];
  /** The name the host knows the sender by, passed to extraction; never set on a group's pool. */
  userName?: string;
}

/** One sender's messages of a session, not yet retained. */
interface Pending {
  scope: Scope;
  sessionId: string | undefined;
  messages: CapturedMessage[];
  userName?: string;
}

interface Cursor {
  /** Transcript length when last read. */
  seen: number;
  /** Fingerprint of the last message read. */
  lastFingerprint: string | null;
  /** Timestamp of the last message read, when messages carry one. */
  lastTimestamp: number | undefined;
  /** Captured messages not yet retained, per scope (least recently added first). */
  pending: Map<string, Pending>;
}

/** A scope as a map key: every field, unambiguously. */
const keyOf = (scope: Scope) => JSON.stringify([scope.agentId ?? null, scope.userId ?? null, scope.namespace ?? null]);

/**
 * Where the new messages start in `transcript`, given what the cursor saw last. A session seen
 * for the first time starts at the first message written since `since` (the plugin's start):
 * cursors live in memory, and after a gateway restart the older messages were captured (or
 * flushed) by the process before.
 */
function startOf(cursor: Cursor | undefined, transcript: readonly unknown[], since: number): number {
  if (!cursor || cursor.lastFingerprint === null) {
    const first = transcript.findIndex((message) => (timestampOf(message) ?? Number.POSITIVE_INFINITY) >= since);
    return first < 0 ? transcript.length : first;
  }
  const { seen, lastFingerprint, lastTimestamp } = cursor;
  if (seen <= transcript.length && seen > 0 && fingerprintOf(transcript[seen - 1]) === lastFingerprint) return seen;
  // The host rewrote the transcript (compaction, a retried turn): find the last message read.
  for (let index = transcript.length - 1; index >= 0; index--) {
    if (fingerprintOf(transcript[index]) === lastFingerprint) return index + 1;
  }
  if (lastTimestamp !== undefined) {
    const next = transcript.findIndex((message) => (timestampOf(message) ?? Number.POSITIVE_INFINITY) > lastTimestamp);
    return next < 0 ? transcript.length : next;
  }
  return 0;
}

/** Per-session cursors, at most `maxSessions` (the least recently used is flushed and dropped). */
export class SessionCursors {
  readonly #cursors = new Map<string, Cursor>();

  /**
   * @param since Messages older than this (epoch ms) in a session not seen before are not captured.
   * @param maxSessions Sessions tracked at once; more are flushed oldest first.
   * @param maxSendersPerSession Senders with pending messages per session; more are flushed oldest first.
   */
  constructor(
    private readonly since: number,
    private readonly maxSessions = 1000,
    private readonly maxSendersPerSession = 100,
  ) {}

  /**
   * Read a transcript at the end of a run: its new messages are the run's, and join the
   * pending messages of the run's `scope` (its sender); lines of other members the host
   * bundled into them join the chat's `pool`. Returns the batches to retain now:
   * that sender's, once `minMessages` are pending, and any pushed out of the tables. With
   * `discard`, the new messages are passed over, not kept (a failed run: its messages are not
   * captured, now or later).
   */
  read(
    sessionKey: string,
    transcript: readonly unknown[],
    options: {
      scope: Scope;
      /** Where the other members' lines the host bundled into the run go (the chat's pool). */
      pool: Scope;
      sessionId: string | undefined;
      captureAssistant: boolean;
      minMessages: number;
      discard?: boolean;
      /** The sender's name as the host knows it: given to the run's own messages, not the pool's. */
      userName?: string;
      /** Told how many capturable messages a `discard` passed over. */
      onDiscard?: (count: number) => void;
    },
  ): CaptureBatch[] {
    const cursor = this.#cursors.get(sessionKey);
    const fresh = transcript.slice(startOf(cursor, transcript, this.since));
    const last = transcript.at(-1);
    const next: Cursor = {
      seen: transcript.length,
      lastFingerprint: transcript.length > 0 ? fingerprintOf(last) : (cursor?.lastFingerprint ?? null),
      lastTimestamp: timestampOf(last) ?? cursor?.lastTimestamp,
      pending: cursor?.pending ?? new Map(),
    };
    // Re-inserting keeps the map in least-recently-used order.
    this.#cursors.delete(sessionKey);
    this.#cursors.set(sessionKey, next);
    const batches: CaptureBatch[] = [];
    let captured = capturableMessages(fresh, options.captureAssistant);
    if (options.discard) {
      if (captured.length > 0) options.onDiscard?.(captured.length);
      captured = [];
    }
    const own = captured.filter((message) => !message.bundled);
    const bundled = captured.filter((message) => message.bundled);
    for (const [scope, messages, named] of [
      [options.pool, bundled, false],
      [options.scope, own, true],
    ] as const) {
      if (messages.length === 0) continue;
      const key = keyOf(scope);
      const pending = next.pending.get(key) ?? { scope, sessionId: options.sessionId, messages: [] };
      for (const { bundled: _bundled, ...message } of messages) pending.messages.push(message);
      pending.sessionId = options.sessionId ?? pending.sessionId;
      if (named && options.userName !== undefined) pending.userName = options.userName;
      next.pending.delete(key);
      next.pending.set(key, pending);
      if (pending.messages.length >= options.minMessages) batches.push(this.#take(sessionKey, next, key));
    }
    while (next.pending.size > this.maxSendersPerSession) {
      batches.push(this.#take(sessionKey, next, next.pending.keys().next().value as string));
    }
    while (this.#cursors.size > this.maxSessions) {
      const [oldestKey, oldest] = this.#cursors.entries().next().value as [string, Cursor];
      this.#cursors.delete(oldestKey);
      batches.push(...this.#takeAll(oldestKey, oldest));
    }
    return batches;
  }

  /** The session's pending messages, every sender's, however few, to retain now (session end, reset). */
  flush(sessionKey: string): CaptureBatch[] {
    const cursor = this.#cursors.get(sessionKey);
    return cursor ? this.#takeAll(sessionKey, cursor) : [];
  }

  /** Every session's pending messages (gateway stop). */
  flushAll(): CaptureBatch[] {
    return [...this.#cursors.keys()].flatMap((key) => this.flush(key));
  }

  /** Forget a session (after its pending messages were flushed). */
  forget(sessionKey: string): void {
    this.#cursors.delete(sessionKey);
  }

  #takeAll(sessionKey: string, cursor: Cursor): CaptureBatch[] {
    return [...cursor.pending.keys()].map((key) => this.#take(sessionKey, cursor, key));
  }

  #take(sessionKey: string, cursor: Cursor, key: string): CaptureBatch {
    const pending = cursor.pending.get(key)!;
    cursor.pending.delete(key);
    return {
      sessionKey,
      sessionId: pending.sessionId,
      scope: pending.scope,
      messages: pending.messages,
      ...(pending.userName === undefined ? {} : { userName: pending.userName }),
    };
  }
}
