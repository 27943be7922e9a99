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
import type { MemoryRecord } from '../spec/store.js';
import { type StoredClaim, slotTerm, storedClaims, subjectTerm } from '../text/claim-terms.js';
import type { Claim } from './claim.js';
import { supersedingReason } from './decide.js';
import { loadParser, type Parse } from './reading/parser.js';
import { readClaims } from './reading/read-claims.js';
import { personKey, subjectKey, UNRESOLVED_PERSON } from './reading/subject.js';

/**
 * The most holders a slot lookup reads. Not a cap on what it finds in practice: a slot holds
 * one memory per version of one subject's attribute, and each lookup asks for the slots of one
 * memory's claims only.
 */
const SLOT_HOLDERS = 100_000;
/** Slot lookups in flight at once. */
const LOOKUPS_AT_ONCE = 8;
/** Recent memories read for the person a memory's opening pronoun stands for (those of the latest retain). */
const RECENT_FOR_PRONOUNS = 50;
/** Claims kept on one memory. */
const KEPT_CLAIMS = 12;

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
 * said, and never ends a fact the user stated (it is recalled beside it); nor does a memory whose
 * `source.origin` is a tool, a document or a quote.
 */
export function takesPart(memory: Memory): boolean {
  return (
    memory.metadata?.episode !== true &&
    memory.metadata?.captured !== true &&
    !UNTRUSTED_ORIGINS.has(memory.source?.origin ?? 'user') &&
    memory.kind !== 'observation' &&
    memory.kind !== 'opinion'
  );
}

// Words that are not the user's (nor the agent's): what a tool returned, a document, a quote.
const UNTRUSTED_ORIGINS: ReadonlySet<string> = new Set(['tool', 'document', 'quote']);

/**
 * Reported speech of someone named (`Mallory said: "I moved to Berlin"`, `Sam wrote, 'we switched
 * to yarn'`): the "I" and "we" inside the quote are theirs, not the user's, so the quote states no
 * fact of the user's.
 */
const QUOTED_SPEAKER =
  /^\s*(?!(?:I|We|You)\b)\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}\s+(?:said|says|wrote|writes|claimed|claims|told (?:me|us)|texted|tweeted|posted|replied|answered|insisted|mentioned)\b[^"“”'‘’\n]{0,40}?[:,]?\s*["“'‘]/u;

/** Reads a memory's claims from its content, with its entities as context. */
export type ClaimReader = (memory: Memory) => Claim[];

/** How many texts' claims are kept, read once, across retains. */
const READ_CACHE_SIZE = 4096;

// Every earlier holder of a slot is compared with each new memory, so a fact with 300 versions
// had all 300 parsed again on each retain (80 ms a retain at the 300th, two thirds of it the
// parser). Claims depend only on the text, its entities and its speaker; the oldest entry goes
// first when the cache is full. Callers copy a claim to change it, never edit it.
const readCache = new Map<string, Claim[]>();

function readCached(key: string, read: () => Claim[]): Claim[] {
  const cached = readCache.get(key);
  if (cached) return cached;
  const claims = read();
  if (readCache.size >= READ_CACHE_SIZE) readCache.delete(readCache.keys().next().value!);
  readCache.set(key, claims);
  return claims;
}

/** The claim reader, loading the parser on first use. */
export async function loadClaimReader(): Promise<ClaimReader> {
  const parse: Parse = await loadParser();
  return (memory) => {
    if (!takesPart(memory) || QUOTED_SPEAKER.test(memory.content)) return [];
    const speaker = memory.source?.speaker;
    const key = `${speaker ?? ''}\u0000${memory.entities.join('\u0001')}\u0000${memory.content}`;
    if (speaker === undefined || speaker.toLowerCase() === 'user')
      return readCached(key, () => readClaims(parse, memory.content, { entities: memory.entities }));
    // A speaker's words state the speaker's own facts ("I moved" is theirs), never another's.
    const self = personKey(speaker);
    return readCached(key, () =>
      readClaims(parse, memory.content, { entities: memory.entities, speaker: self }).filter(
        (claim) => claim.subject === self,
      ),
    );
  };
}

// Earlier in the world first; on a tie, the one that arrived first.
function before(a: Memory, b: Memory): boolean {
  return a.validFrom < b.validFrom || (a.validFrom === b.validFrom && a.createdAt <= b.createdAt);
}

/** The index terms that find every earlier holder of `claims`' slots. */
function lookupTerms(claims: readonly Claim[]): string[] {
  const terms = new Set<string>();
  for (const claim of claims) {
    // "left Barcelona" and "switched from X" may end a value of any family: every claim about the subject.
    if (claim.family === '*' || claim.from !== undefined || claim.negated) terms.add(subjectTerm(claim.subject));
    else terms.add(slotTerm(claim.subject, claim.family));
  }
  return [...terms];
}

async function holdersOf(engine: MemoryEngine, memory: Memory, terms: readonly string[]): Promise<Memory[]> {
  const hits = await searchLexical(engine.store, {
    text: terms.join(' '),
    filter: { scope: memory.scope },
    limit: SLOT_HOLDERS,
  });
  return hits.length === 0 ? [] : engine.store.getMemories(hits.map((hit) => hit.id));
}

const isNamedPerson = (subject: string) =>
  subject !== 'user' && subject !== UNRESOLVED_PERSON && !subject.includes('/') && !subject.includes(' ');

/** The person a memory names last: a claim's subject, or its one entity. */
function personNamedBy(memory: Memory, claims: readonly { subject: string }[]): string | undefined {
  const named = claims
    .map((claim) => claim.subject)
    .filter((subject) => isNamedPerson(subject) || subject.includes(' '));
  const last = named.filter((subject) => subject !== UNRESOLVED_PERSON).at(-1);
  if (last) return last;
  return memory.entities.length === 1 ? subjectKey(memory.entities[0]!) : undefined;
}

/**
 * "She moved again, to Montreal": a pronoun with no one named before it in its memory stands for
 * the person named last — earlier in the batch, else by the memories of the scope's latest retain
 * when they name exactly one person (as a listener follows a conversation). Claims whose pronoun
 * finds no one, or several, are dropped.
 */
async function resolvePronouns(
  engine: MemoryEngine,
  batch: readonly Memory[],
  claims: Map<string, Claim[]>,
  read: ClaimReader,
): Promise<void> {
  let stored: Memory[] | undefined;
  let previous: string | undefined;
  for (const memory of batch) {
    const own = claims.get(memory.id) ?? read(memory);
    claims.set(memory.id, own);
    if (own.some((claim) => claim.subject === UNRESOLVED_PERSON)) {
      if (previous === undefined) {
        stored ??= await engine.store.listMemories({
          filter: { scope: memory.scope },
          orderBy: 'createdAt',
          direction: 'desc',
          limit: RECENT_FOR_PRONOUNS,
        });
        // Only the latest memories (one retain call): a pronoun after a batch naming several
        // people stands for no one we can tell.
        const latest = stored.filter((earlier) => earlier.createdAt === stored![0]?.createdAt);
        const named = new Set(
          latest.flatMap((earlier) => personNamedBy(earlier, storedClaims(earlier.metadata)) ?? []),
        );
        previous = named.size === 1 ? [...named][0] : undefined;
      }
      const resolved = own.flatMap((claim) =>
        claim.subject !== UNRESOLVED_PERSON ? [claim] : previous ? [{ ...claim, subject: previous }] : [],
      );
      claims.set(memory.id, resolved);
    }
    previous = personNamedBy(memory, claims.get(memory.id) ?? []) ?? previous;
  }
}

/** A claim as kept on the memory. */
function stored(claim: Claim): StoredClaim {
  return {
    subject: claim.subject,
    family: claim.family,
    key: claim.key,
    value: claim.value,
    ...(claim.negated ? { negated: true } : {}),
    ...(claim.from !== undefined ? { from: claim.from } : {}),
  };
}

/** The memory with its claims kept in its metadata (what the slot terms are indexed from). */
function withClaims(memory: Memory, claims: readonly Claim[]): Memory {
  const { claims: _old, ...rest } = memory.metadata;
  if (claims.length === 0) return _old === undefined ? memory : { ...memory, metadata: rest };
  return {
    ...memory,
    metadata: { ...rest, claims: claims.slice(0, KEPT_CLAIMS).map((claim) => ({ ...stored(claim) })) },
  };
}

/**
 * The claims of each memory of a batch that takes part, by id: what {@link findRuleSupersessions}
 * reads, computed ahead (retain does it while the embedder works).
 */
export function batchClaims(batch: readonly Memory[], read: ClaimReader): Map<string, Claim[]> {
  return new Map(batch.map((memory) => [memory.id, read(memory)]));
}

/**
 * Decide supersession for `batch` (built, not yet written) against each other and the
 * store. Conservative: only memories whose claims the parser reads, only the same scope,
 * never a memory invalidated by hand. Every earlier holder of a claim's slot is looked up, by
 * the slot's index term, whatever the arrival order. `claimsRead` holds claims already read
 * (by {@link batchClaims}) for memories whose text has not changed since. Each memory of the
 * batch comes back with its claims kept in `metadata.claims` (and any given there replaced).
 */
export async function findRuleSupersessions(
  engine: MemoryEngine,
  batch: readonly Memory[],
  claimsRead?: ReadonlyMap<string, Claim[]>,
): Promise<RuleSupersessions> {
  const result: RuleSupersessions = { stored: [], batch: new Map(), links: [] };
  const reader = await loadClaimReader();
  const claims = new Map<string, Claim[]>(claimsRead);
  await resolvePronouns(engine, batch, claims, reader);
  const claimsOf = (memory: Memory) => {
    let found = claims.get(memory.id);
    if (!found) {
      found = reader(memory);
      claims.set(memory.id, found);
    }
    return found;
  };
  // Claims a switch of no known family took from the value it replaced ("moved from X to Y"
  // after "our CI is X"): kept on the newer memory so that its slot finds it next time.
  const adopted = new Map<string, Claim[]>();
  const known = new Map<string, Memory>();
  const inBatch = new Set(batch.map((memory) => memory.id));
  const changed = new Set<string>();
  for (const memory of batch) {
    const kept = withClaims(memory, claimsOf(memory));
    known.set(memory.id, kept);
    if (kept !== memory) changed.add(memory.id);
  }
  const participants = batch.filter((memory) => claimsOf(memory).length > 0);

  // One lookup per distinct set of slots (a batch often repeats one), several at a time.
  const lookups = new Map<string, { memory: Memory; terms: string[] }>();
  for (const memory of participants) {
    const terms = lookupTerms(claimsOf(memory));
    const key = JSON.stringify([memory.scope, terms]);
    if (!lookups.has(key)) lookups.set(key, { memory, terms });
  }
  const pending = [...lookups.values()];
  for (let start = 0; start < pending.length; start += LOOKUPS_AT_ONCE) {
    const found = await Promise.all(
      pending
        .slice(start, start + LOOKUPS_AT_ONCE)
        .map(async ({ memory, terms }) => ({ memory, holders: await holdersOf(engine, memory, terms) })),
    );
    for (const { memory, holders } of found)
      for (const holder of holders)
        if (!known.has(holder.id) && sameScope(holder.scope, memory.scope)) known.set(holder.id, { ...holder });
  }

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
  const adopt = (memoryId: string, claim: Claim | undefined) => {
    if (claim) adopted.set(memoryId, [...(adopted.get(memoryId) ?? []), claim]);
  };

  const ordered = participants.map((memory) => known.get(memory.id)!).sort((a, b) => (before(a, b) ? -1 : 1));
  for (const { id } of ordered) {
    const memory = known.get(id)!;
    const mine = claimsOf(memory);
    let successor: { memory: Memory; reason: string } | undefined;
    for (const other of known.values()) {
      if (other.id === memory.id || !sameScope(other.scope, memory.scope)) continue;
      const theirs = claimsOf(other);
      if (theirs.length === 0) continue;
      // A memory invalidated by hand stays as the user left it.
      if (other.validTo !== null && other.supersededBy === null && !inBatch.has(other.id)) continue;
      if (before(other, memory)) {
        // An older fact that is current, or whose successor came later in the world than this one.
        const open = other.validTo === null || (other.supersededBy !== null && other.validTo > memory.validFrom);
        const found = open ? supersedingReason(mine, theirs) : undefined;
        if (found && other.supersededBy !== memory.id) {
          link(other.id, memory.id, found.reason);
          adopt(memory.id, found.adopted);
        }
      } else {
        const found = supersedingReason(theirs, mine);
        if (found && (!successor || before(other, successor.memory))) {
          successor = { memory: other, reason: found.reason };
          adopt(other.id, found.adopted);
        }
      }
    }
    if (successor && known.get(id)!.supersededBy !== successor.memory.id)
      link(id, successor.memory.id, successor.reason);
  }
  for (const [id, extra] of adopted) {
    const memory = known.get(id)!;
    update(withClaims(memory, [...claimsOf(memory), ...extra]));
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
