/**
 * The versions of a fact: `history(id)` walks the chain a memory belongs to (what it replaced
 * and what replaced it), and `correct(id, input)` retains a new version that supersedes an
 * old one in one call.
 */

import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import type { RetainApi } from '../retain/retain-api.js';
import { supersededIds, withoutSuperseded, withSuperseded } from '../search/memory-versions.js';
import { memoriesInScope, requireMemory } from '../shared/require-memory.js';
import { type Memory, type MemoryInput, memoryInputSchema } from '../spec/memory.js';
import { parseInput } from '../utils/validate.js';

/**
 * One version in a {@link MemoryHistory}.
 *
 * @group Client
 */
export interface MemoryVersion {
  /** The memory. */
  memory: Memory;
  /** When it became true (`validFrom`). */
  from: string;
  /** When it stopped being true (`validTo`), or null while it is current. */
  until: string | null;
  /** Why it stopped: the rule or call that superseded or invalidated it, or null. */
  reason: string | null;
}

/**
 * What `history(id)` resolves to.
 *
 * @group Client
 */
export interface MemoryHistory {
  /** The memory asked about. */
  id: string;
  /** Every version of its fact, oldest first (by when each became true). */
  versions: MemoryVersion[];
  /** The version true now, or null when none is (every version invalidated). */
  current: string | null;
}

/**
 * Versions of facts: their history, and corrections.
 *
 * @group Client
 */
export interface VersionsApi {
  /**
   * The chain of versions the memory `id` belongs to, in both directions (what it replaced,
   * what replaced it), oldest first, with dates and reasons. A memory never superseded is a
   * history of one. An id outside the client's scope is a NotFoundError.
   *
   * @example
   * ```ts
   * const { versions, current } = await memory.history(id);
   * for (const v of versions) console.log(v.from.slice(0, 10), v.until?.slice(0, 10) ?? 'now', v.memory.content);
   * ```
   */
  history(id: string): Promise<MemoryHistory>;
  /**
   * Retain `input` (a string or a memory input) as the new version of memory `id`, which it
   * supersedes (kept, with `validTo` and `supersededBy`). Kind, category and entities default
   * to the old memory's. Resolves to the new memory's id and the history after the change.
   *
   * @example
   * ```ts
   * await memory.correct(id, 'Peter lives in Lisbon since December 2025.');
   * ```
   */
  correct(id: string, input: string | MemoryInput): Promise<CorrectionResult>;
}

/**
 * What `correct(id, input)` resolves to.
 *
 * @group Client
 */
export interface CorrectionResult {
  /** The new version's id. */
  id: string;
  /** The chain after the correction, oldest first. */
  history: MemoryHistory;
}

const idSchema = z.string().min(1, 'expected a memory id').max(256);
const correctionTextSchema = z.string().trim().min(1, 'expected the corrected text');
// A chain longer than this is read no further (a guard against a cycle in damaged data).
const MAX_VERSIONS = 1_000;

/** The versions feature over an engine and the retain feature. */
export function createVersionsApi(engine: MemoryEngine, retain: RetainApi): VersionsApi {
  async function history(idInput: unknown, component = 'history'): Promise<MemoryHistory> {
    const id = parseInput(idSchema, idInput, component, 'id');
    await engine.ready(component);
    const start = await requireMemory(engine, id, component);
    const seen = new Map<string, Memory>([[start.id, start]]);
    let frontier: Memory[] = [start];
    while (frontier.length > 0 && seen.size < MAX_VERSIONS) {
      const linked = frontier.flatMap((memory) => [
        ...supersededIds(memory),
        ...(memory.supersededBy ? [memory.supersededBy] : []),
      ]);
      const fresh = [...new Set(linked)].filter((linkedId) => !seen.has(linkedId));
      // Read through the scope: a link never leads a scoped client into another tenant's rows.
      frontier = fresh.length > 0 ? await memoriesInScope(engine, fresh) : [];
      for (const memory of frontier) seen.set(memory.id, memory);
    }
    const versions = [...seen.values()]
      // On the same instant (a correction made now), the version superseded comes first.
      .sort(
        (a, b) =>
          a.validFrom.localeCompare(b.validFrom) ||
          (a.supersededBy === b.id ? -1 : b.supersededBy === a.id ? 1 : 0) ||
          a.createdAt.localeCompare(b.createdAt) ||
          (a.id < b.id ? -1 : 1),
      )
      .map((memory) => ({
        memory,
        from: memory.validFrom,
        until: memory.validTo,
        reason: memory.invalidationReason,
      }));
    const now = engine.nowIso();
    const current = versions.filter(
      (version) => version.from <= now && (version.until === null || version.until > now),
    );
    return { id: start.id, versions, current: current.at(-1)?.memory.id ?? null };
  }

  // The new version sits between `replacedId` and its old successor: it is superseded by that
  // successor, which now names it instead of the version it replaced.
  async function relink(newId: string, replacedId: string, successor: Memory): Promise<void> {
    const [created] = await memoriesInScope(engine, [newId]);
    if (!created) return;
    const now = engine.nowIso();
    const embeddings = await engine.store.getEmbeddings([newId, successor.id]);
    await engine.store.upsertMemories([
      {
        memory: {
          ...created,
          validTo: successor.validFrom,
          supersededBy: successor.id,
          invalidationReason: `superseded by ${successor.id}`,
          updatedAt: now,
        },
        embedding: embeddings.get(newId) ?? null,
      },
      {
        memory: { ...withSuperseded(withoutSuperseded(successor, replacedId), newId), updatedAt: now },
        embedding: embeddings.get(successor.id) ?? null,
      },
    ]);
  }

  return drained<AsyncMembers<VersionsApi>>({
    history: (id) => history(id),
    async correct(idInput, input) {
      const id = parseInput(idSchema, idInput, 'correct', 'id');
      // Text or a memory input, each checked by its own schema: a union's error would name
      // only `input`, never the field of the memory input that was wrong.
      const parsed =
        typeof input === 'string'
          ? parseInput(correctionTextSchema, input, 'correct', 'input')
          : parseInput(memoryInputSchema, input, 'correct', 'input');
      await engine.ready('correct');
      const old = await requireMemory(engine, id, 'correct');
      const given: MemoryInput = typeof parsed === 'string' ? { content: parsed } : parsed;
      const successor = old.supersededBy ? (await memoriesInScope(engine, [old.supersededBy]))[0] : undefined;
      const when = given.validFrom ?? given.occurredAt;
      // A correction replaces the version it names, in its place in the timeline: correcting an
      // old version ("I lived in Graz, not Vienna") never ends what is true now (Lisbon). Undated,
      // it holds from when the version it corrects did; dated before that version's successor,
      // from its date. Only a correction dated after the successor started corrects the chain's
      // current version, as a later fact would.
      const startsAt = when === undefined ? old.validFrom : new Date(when).toISOString();
      const inPlace = successor !== undefined && startsAt < successor.validFrom;
      const target = successor && !inPlace ? ((await history(old.id, 'correct')).current ?? old.id) : old.id;
      const result = await retain.retain(
        {
          kind: old.kind,
          category: old.category,
          entities: old.entities,
          // A version belongs to its fact's owner: an unscoped (admin) client must not leave it
          // scopeless, where the owner's scoped client would never see the correction.
          scope: old.scope,
          ...(when === undefined && inPlace ? { validFrom: old.validFrom } : {}),
          ...given,
          supersedes: [...new Set([...(given.supersedes ?? []), target])],
        },
        { onDuplicate: 'keep', corrections: 'marked' },
      );
      const newId = result.ids[0]!;
      if (inPlace && successor) await relink(newId, old.id, successor);
      return { id: newId, history: await history(newId, 'correct') };
    },
  });
}
