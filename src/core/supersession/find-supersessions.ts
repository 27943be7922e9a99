/**
 * Supersession without a model, over a batch about to be written: which older memories of
 * the same scope each new one makes no longer current, and which newer ones make a late
 * arrival already superseded. Time is the world's (`validFrom`), not arrival order, so a
 * backfilled fact lands in the right place of its chain.
 */
import type { MemoryEngine } from '../engine/memory-engine.js';
import { withoutSuperseded, withSuperseded } from '../search/memory-versions.js';
import { searchLexical } from '../search/native-or-scan.js';
import { type Memory, sameScope } from '../spec/memory.js';
import type { MemoryFilter, MemoryRecord } from '../spec/store.js';
import { candidateQuery } from './candidate-query.js';
import type { Claim } from './claim.js';
import { supersedingReason } from './decide.js';
import { extractClaims } from './extract-claims.js';

/** Older facts read per new memory, by words and by entity. */
const CANDIDATES = 60;
/** Candidate lookups in flight at once. */
const LOOKUPS_AT_ONCE = 8;

/** What the rules decided for a batch. */
export interface RuleSupersessions {
  /** Stored memories that stop being current (or move in their chain), ready to upsert. */
  stored: MemoryRecord[];
  /** Memories of the batch as they must be written (superseded, or naming what they supersede), by id. */
  batch: Map<string, Memory>;
  /** For each link made: the older id, the newer id and the rule's reason (for events and history). */
  links: Array<{ older: string; newer: string; reason: string }>;
}

/**
 * Whether a memory takes part: raw episodes keep the words said and state no current value;
 * opinions carry a confidence that reflect moves by evidence, in small steps, so one
 * contradicting sentence weighs on them there instead of replacing them here; a captured tool
 * call's output (a fetched web page, a file read) is what a tool returned, not what the user
 * said, and never ends a fact the user stated (it is recalled beside it).
 */
export function takesPart(memory: Memory): boolean {
  return (
    memory.metadata?.episode !== true &&
    memory.metadata?.captured !== true &&
    memory.kind !== 'observation' &&
    memory.kind !== 'opinion'
  );
}

/**
 * Reported speech of someone named (`Mallory said: "I moved to Berlin"`, `Sam wrote, 'we switched
 * to yarn'`): the "I" and "we" inside the quote are theirs, not the user's, so the quote states no
 * fact of the user's.
 */
const QUOTED_SPEAKER =
  /^\s*(?!(?:I|We|You)\b)\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}\s+(?:said|says|wrote|writes|claimed|claims|told (?:me|us)|texted|tweeted|posted|replied|answered|insisted|mentioned)\b[^"“”'‘’\n]{0,40}?[:,]?\s*["“'‘]/u;

/** The claims of a memory, read from its content with its entities as context. */
export function claimsOf(memory: Memory): Claim[] {
  if (QUOTED_SPEAKER.test(memory.content)) return [];
  return extractClaims(memory.content, { entities: memory.entities });
}

// Earlier in the world first; on a tie, the one that arrived first.
function before(a: Memory, b: Memory): boolean {
  return a.validFrom < b.validFrom || (a.validFrom === b.validFrom && a.createdAt <= b.createdAt);
}

async function candidatesFor(engine: MemoryEngine, memory: Memory, claims: readonly Claim[]): Promise<Memory[]> {
  const text = candidateQuery(claims);
  const byScore = (filter: MemoryFilter) => searchLexical(engine.store, { text, filter, limit: CANDIDATES });
  // A fact dated when it is retained (the usual case) can end only the facts true now, and no
  // stored fact is later than it: looking up those alone keeps many superseded versions of one
  // fact (300 near-duplicates) from pushing the current one out of the capped list, where it
  // stayed current beside the new one. A late arrival needs the versions around its date too;
  // looking up both cost late arrivals a quarter of their retain speed, so until claims have a
  // timeline of their own it keeps the one lookup by word score.
  const datedNow = memory.validFrom >= memory.createdAt;
  const hits = await byScore(datedNow ? { scope: memory.scope, validAt: memory.validFrom } : { scope: memory.scope });
  const ids = hits.map((hit) => hit.id);
  const byWords = await engine.store.getMemories(ids);
  const byEntity =
    memory.entities.length > 0
      ? await engine.store.listMemories({
          filter: { scope: memory.scope, entities: memory.entities },
          orderBy: 'occurredAt',
          direction: 'desc',
          limit: CANDIDATES,
        })
      : [];
  return [...byWords, ...byEntity];
}

/**
 * The claims of each memory of a batch that takes part, by id: what {@link findRuleSupersessions}
 * reads, computed ahead (retain does it while the embedder works).
 */
export function batchClaims(batch: readonly Memory[]): Map<string, Claim[]> {
  return new Map(batch.map((memory) => [memory.id, takesPart(memory) ? claimsOf(memory) : []]));
}

/**
 * Decide supersession for `batch` (built, not yet written) against each other and the
 * store. Conservative: only memories whose claims the rules read, only the same scope,
 * never a memory invalidated by hand. `claimsRead` holds claims already read (by
 * {@link batchClaims}) for memories whose text has not changed since.
 */
export async function findRuleSupersessions(
  engine: MemoryEngine,
  batch: readonly Memory[],
  claimsRead?: ReadonlyMap<string, Claim[]>,
): Promise<RuleSupersessions> {
  const result: RuleSupersessions = { stored: [], batch: new Map(), links: [] };
  const claims = new Map<string, Claim[]>(claimsRead);
  const readClaims = (memory: Memory) => {
    let found = claims.get(memory.id);
    if (!found) {
      found = takesPart(memory) ? claimsOf(memory) : [];
      claims.set(memory.id, found);
    }
    return found;
  };
  const participants = batch.filter((memory) => readClaims(memory).length > 0);
  if (participants.length === 0) return result;

  // Working copies: every link is applied here, then the changed stored ones are written.
  const known = new Map<string, Memory>();
  const inBatch = new Set(batch.map((memory) => memory.id));
  for (const memory of batch) known.set(memory.id, { ...memory });
  // One lookup per distinct question (a batch often repeats one), several at a time.
  const lookups = new Map<string, { memory: Memory; asked: Claim[] }>();
  for (const memory of participants) {
    const asked = readClaims(memory);
    const key = JSON.stringify([memory.scope, [...memory.entities].sort(), candidateQuery(asked)]);
    if (!lookups.has(key)) lookups.set(key, { memory, asked });
  }
  const pending = [...lookups.values()];
  for (let start = 0; start < pending.length; start += LOOKUPS_AT_ONCE) {
    const found = await Promise.all(
      pending
        .slice(start, start + LOOKUPS_AT_ONCE)
        .map(async ({ memory, asked }) => ({ memory, candidates: await candidatesFor(engine, memory, asked) })),
    );
    for (const { memory, candidates } of found)
      for (const candidate of candidates)
        if (!known.has(candidate.id) && sameScope(candidate.scope, memory.scope))
          known.set(candidate.id, { ...candidate });
  }

  const changed = new Set<string>();
  const update = (memory: Memory) => {
    known.set(memory.id, memory);
    changed.add(memory.id);
  };
  const link = (olderId: string, newerId: string, reason: string) => {
    const older = known.get(olderId)!;
    const newer = known.get(newerId)!;
    // The version it pointed to before (a late arrival moves into the chain) forgets it.
    const previous = older.supersededBy === null ? undefined : known.get(older.supersededBy);
    if (previous && previous.id !== newer.id) update(withoutSuperseded(previous, older.id));
    update({
      ...older,
      // ISO instants sort as text: the later of the two, so a tie leaves an empty span.
      validTo: [older.validFrom, newer.validFrom].sort()[1] ?? newer.validFrom,
      supersededBy: newer.id,
      invalidationReason: `superseded by ${newer.id} (${reason})`,
    });
    update(withSuperseded(known.get(newerId)!, older.id));
    result.links.push({ older: older.id, newer: newer.id, reason });
  };

  const ordered = participants.map((memory) => known.get(memory.id)!).sort((a, b) => (before(a, b) ? -1 : 1));
  for (const { id } of ordered) {
    const memory = known.get(id)!;
    const mine = readClaims(memory);
    let successor: { memory: Memory; reason: string } | undefined;
    for (const other of known.values()) {
      if (other.id === memory.id || !sameScope(other.scope, memory.scope)) continue;
      const theirs = readClaims(other);
      if (theirs.length === 0) continue;
      // A memory invalidated by hand stays as the user left it.
      if (other.validTo !== null && other.supersededBy === null && !inBatch.has(other.id)) continue;
      if (before(other, memory)) {
        // An older fact that is current, or whose successor came later in the world than this one.
        const open = other.validTo === null || (other.supersededBy !== null && other.validTo > memory.validFrom);
        const reason = open ? supersedingReason(mine, theirs) : undefined;
        if (reason && other.supersededBy !== memory.id) link(other.id, memory.id, reason);
      } else {
        const reason = supersedingReason(theirs, mine);
        if (reason && (!successor || before(other, successor.memory))) successor = { memory: other, reason };
      }
    }
    if (successor && known.get(id)!.supersededBy !== successor.memory.id)
      link(id, successor.memory.id, successor.reason);
  }

  for (const id of changed) {
    const memory = known.get(id)!;
    if (inBatch.has(id)) result.batch.set(id, memory);
    else result.stored.push({ memory: { ...memory, updatedAt: engine.nowIso() }, embedding: null });
  }
  if (result.stored.length > 0) {
    const embeddings = await engine.store.getEmbeddings(result.stored.map((record) => record.memory.id));
    for (const record of result.stored) record.embedding = embeddings.get(record.memory.id) ?? null;
  }
  return result;
}
