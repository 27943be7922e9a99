import type { Memory } from '../spec/memory.js';
import type { Session } from '../spec/records.js';

/**
 * A name and how often it occurred.
 *
 * @group Memories and sessions
 */
export interface Tally {
  /** The category or action name. */
  name: string;
  /** Occurrences in the session. */
  count: number;
}

/**
 * A session with a summary of what happened in it.
 *
 * @group Memories and sessions
 */
export interface SessionSummary extends Session {
  /** Most frequent categories of its memories, most frequent first (at most 5). */
  topCategories: Tally[];
  /** Most frequent captured actions (by tool name), most frequent first (at most 5). */
  topActions: Tally[];
}

/** The most frequent names, most frequent first, ties by name. */
export function topTallies(names: Iterable<string>, limit = 5): Tally[] {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1))
    .slice(0, limit);
}

/** Summarise a session from its memories: most frequent categories and actions. */
export function summariseSession(session: Session, memories: readonly Memory[]): SessionSummary {
  const actions = memories
    .filter((memory) => memory.category === 'action')
    .map((memory) =>
      typeof memory.metadata.tool === 'string' ? memory.metadata.tool : (memory.entities[0] ?? 'action'),
    );
  const topCategories = topTallies(memories.map((memory) => memory.category));
  const topActions = topTallies(actions);
  const summary =
    session.summary ??
    (memories.length === 0
      ? null
      : `${memories.length} memories; mostly ${topCategories.map((tally) => `${tally.name} (${tally.count})`).join(', ')}${
          topActions.length > 0
            ? `; actions: ${topActions.map((tally) => `${tally.name} ×${tally.count}`).join(', ')}`
            : ''
        }`);
  return { ...session, summary, topCategories, topActions };
}
