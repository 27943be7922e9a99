import type { Scope } from '../../core/spec/memory.js';
import { type CapturedMessage, capturableMessages, fingerprintOf, timestampOf } from './openclaw-messages.js';

// agent_end hands the plugin the session's whole transcript every turn. A cursor per session
// remembers how far it has read, so each message is captured once; new messages wait in the
// cursor until there are enough to extract from (`extractMinMessages`), and whatever is still
// waiting when the session ends, resets or the gateway stops is flushed then, so nothing is lost.

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
}

interface Cursor {
  /** Transcript length when last read. */
  seen: number;
  /** Fingerprint of the last message read. */
  lastFingerprint: string | null;
  /** Timestamp of the last message read, when messages carry one. */
  lastTimestamp: number | undefined;
  /** Captured messages not yet retained. */
  pending: CapturedMessage[];
  scope: Scope;
  sessionId: string | undefined;
}

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
   */
  constructor(
    private readonly since: number,
    private readonly maxSessions = 1000,
  ) {}

  /**
   * Read a transcript: add its new messages to the session's pending ones. Returns the
   * batches to retain now: the session's, once `minMessages` are pending, and any session
   * pushed out of the table. With `discard`, the new messages are passed over, not kept
   * (a failed run: its messages are not captured, now or later).
   */
  read(
    sessionKey: string,
    transcript: readonly unknown[],
    options: {
      scope: Scope;
      sessionId: string | undefined;
      captureAssistant: boolean;
      minMessages: number;
      discard?: boolean;
    },
  ): CaptureBatch[] {
    const cursor = this.#cursors.get(sessionKey);
    const fresh = transcript.slice(startOf(cursor, transcript, this.since));
    const last = transcript.at(-1);
    const next: Cursor = {
      seen: transcript.length,
      lastFingerprint: transcript.length > 0 ? fingerprintOf(last) : (cursor?.lastFingerprint ?? null),
      lastTimestamp: timestampOf(last) ?? cursor?.lastTimestamp,
      pending: [
        ...(cursor?.pending ?? []),
        ...(options.discard ? [] : capturableMessages(fresh, options.captureAssistant)),
      ],
      scope: options.scope,
      sessionId: options.sessionId,
    };
    // Re-inserting keeps the map in least-recently-used order.
    this.#cursors.delete(sessionKey);
    this.#cursors.set(sessionKey, next);
    const batches: CaptureBatch[] = [];
    if (next.pending.length >= options.minMessages) batches.push(this.#take(sessionKey, next));
    while (this.#cursors.size > this.maxSessions) {
      const [oldestKey, oldest] = this.#cursors.entries().next().value as [string, Cursor];
      this.#cursors.delete(oldestKey);
      if (oldest.pending.length > 0) batches.push(this.#take(oldestKey, oldest));
    }
    return batches;
  }

  /** The session's pending messages, however few, to retain now (session end, reset, shutdown). */
  flush(sessionKey: string): CaptureBatch | null {
    const cursor = this.#cursors.get(sessionKey);
    return cursor && cursor.pending.length > 0 ? this.#take(sessionKey, cursor) : null;
  }

  /** Every session's pending messages (gateway stop). */
  flushAll(): CaptureBatch[] {
    return [...this.#cursors.keys()].flatMap((key) => this.flush(key) ?? []);
  }

  /** The scope the hooks last resolved for a session, for tools that cannot resolve it. */
  scopeOf(sessionKey: string): Scope | undefined {
    return this.#cursors.get(sessionKey)?.scope;
  }

  /** Record the scope of a session seen by the prompt hook before any transcript was read. */
  noteScope(sessionKey: string, scope: Scope, sessionId: string | undefined): void {
    const cursor = this.#cursors.get(sessionKey);
    if (cursor) cursor.scope = scope;
    // A full table is left to read() to trim (it flushes what it drops); a tool then falls back.
    else if (this.#cursors.size < this.maxSessions) {
      this.#cursors.set(sessionKey, {
        seen: 0,
        lastFingerprint: null,
        lastTimestamp: undefined,
        pending: [],
        scope,
        sessionId,
      });
    }
  }

  /** Forget a session (after its pending messages were flushed). */
  forget(sessionKey: string): void {
    this.#cursors.delete(sessionKey);
  }

  #take(sessionKey: string, cursor: Cursor): CaptureBatch {
    const messages = cursor.pending;
    cursor.pending = [];
    return { sessionKey, sessionId: cursor.sessionId, scope: cursor.scope, messages };
  }
}
