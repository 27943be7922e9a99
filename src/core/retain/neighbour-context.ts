import { TURN_KEY, turnGroupKey, turnOf } from '../conversation/session-turns.js';
import type { Memory, Scope } from '../spec/memory.js';
import type { MemoryRecord } from '../spec/store.js';
import type { CoreStore } from '../store/store-facade.js';

/** Earlier turns read per retain beyond the window: enough to survive a few memories of one millisecond. */
const TAIL_SLACK = 32;
/** Rows per page when a whole instant of the session is read. */
const INSTANT_PAGE = 500;

/**
 * The last `count` turns a session holds in the store (of exactly this scope), oldest first.
 * Read newest first by creation time; when that read is all one instant (a large batch) the
 * rest of that instant is read too, so the numbering never loses its place.
 */
export async function sessionTail(store: CoreStore, sessionId: string, scope: Scope, count: number): Promise<Memory[]> {
  const filter = { sessionId, scope };
  const limit = count + TAIL_SLACK;
  const newest = (size: number, offset = 0) =>
    store.listMemories({ filter, orderBy: 'createdAt', direction: 'desc', limit: size, offset });
  const rows = await newest(limit);
  const instant = rows[0]?.createdAt;
  // A large batch shares one instant, and its order within it is not the store's to give:
  // read the whole instant (at most one batch), page by page.
  if (rows.length === limit && rows.every((row) => row.createdAt === instant)) {
    for (let offset = rows.length; ; offset += INSTANT_PAGE) {
      const page = await newest(INSTANT_PAGE, offset);
      rows.push(...page);
      if (page.length < INSTANT_PAGE || page.some((row) => row.createdAt !== instant)) break;
    }
  }
  const key = turnGroupKey({ sessionId, scope });
  return rows
    .filter((row) => turnOf(row) !== undefined && turnGroupKey(row) === key)
    .sort((a, b) => turnOf(a)! - turnOf(b)!)
    .slice(-count);
}

const joinAround = (texts: readonly string[], at: number, window: number) =>
  texts
    .slice(Math.max(0, at - window), at + window + 1)
    .filter((_, offset) => offset !== Math.min(at, window))
    .join('\n');

/**
 * Index each memory with the text of up to `window` neighbours on either side, so a turn of
 * a conversation is found by what was said around it. Neighbours are the other inputs of the
 * same call with the same session and scope, in input order, and — for a memory with a
 * session — the session's turns stored by earlier calls: an agent retaining as it talks gets
 * the same windows as one retaining the whole conversation at once. Each memory of a session
 * is numbered (`metadata.turn`), and the earlier turns whose following neighbours just
 * arrived are returned with their context rebuilt, to be written with the batch. Inputs with
 * their own `context` keep it and are not numbered. Only the memories `windowed` selects
 * take part.
 */
export async function addNeighbourContext(
  store: CoreStore,
  memories: Memory[],
  inputs: readonly { context?: string }[],
  window: number,
  windowed: (index: number) => boolean = () => true,
): Promise<MemoryRecord[]> {
  const groups = new Map<string, number[]>();
  memories.forEach((memory, index) => {
    if (!windowed(index)) return;
    const key = turnGroupKey(memory);
    const members = groups.get(key);
    if (members) members.push(index);
    else groups.set(key, [index]);
  });
  const rewritten: Memory[] = [];
  for (const members of groups.values()) {
    const first = memories[members[0]!]!;
    const tail = first.sessionId ? await sessionTail(store, first.sessionId, first.scope, 2 * window) : [];
    const texts = [...tail.map((memory) => memory.content), ...members.map((index) => memories[index]!.content)];
    let next = tail.length > 0 ? turnOf(tail[tail.length - 1]!)! + 1 : 0;
    members.forEach((index, position) => {
      if (inputs[index]?.context !== undefined) return;
      const memory = memories[index]!;
      const around = joinAround(texts, tail.length + position, window);
      if (around.length > 0) memory.context = around;
      if (memory.sessionId) memory.metadata = { ...memory.metadata, [TURN_KEY]: next++ };
    });
    // The earlier turns within reach of the new ones now have followers to be found by.
    for (let at = Math.max(0, tail.length - window); at < tail.length; at++) {
      rewritten.push({ ...tail[at]!, context: joinAround(texts, at, window) || null });
    }
  }
  if (rewritten.length === 0) return [];
  const vectors = await store.getEmbeddings(rewritten.map((memory) => memory.id));
  return rewritten.map((memory) => ({ memory, embedding: vectors.get(memory.id) ?? null }));
}
