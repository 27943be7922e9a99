/**
 * Recall asks the timeline: a question read as a subject's attribute ("where does Elena live
 * now", "which package manager does the repo use") brings every holder of that slot into the
 * candidates, at the top, even when it shares no word with the question. The current-truth
 * pass then orders the versions for the time asked (the current one first, or the one valid
 * then for a past question or `asOf`).
 */
import { supersededIds } from '../search/memory-versions.js';
import { searchLexical } from '../search/native-or-scan.js';
import type { Memory } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';
import type { CoreStore } from '../store/store-facade.js';
import { sameKey } from '../supersession/decide.js';
import { loadParser } from '../supersession/reading/parser.js';
import { type AskedSlot, mayAskSlot, readQuestion } from '../supersession/reading/read-question.js';
import { type StoredClaim, slotTerm, storedClaims } from '../text/claim-terms.js';
import type { RecallResult } from './recall-result.js';

type Ranked = Omit<RecallResult, 'tokens'>;

/** Holders read per question: one slot's versions, and a few slots per question. */
const HOLDERS = 200;
/** Current holders brought to the top: a question asks about one or two slots, each with one value now. */
const BROUGHT = 3;
/** The place in the results the first holder is brought to. */
const PLACE = 1;

function holds(claim: StoredClaim, slot: AskedSlot): boolean {
  return (
    claim.subject === slot.subject &&
    claim.family === slot.family &&
    (slot.key === undefined || sameKey(slot.family, claim.key, slot.key))
  );
}

const describe = (claim: StoredClaim) =>
  `${claim.subject} ${claim.family}${claim.key ? ` of ${claim.key}` : ''}: ${claim.negated ? 'no longer ' : ''}${claim.value}`;

/**
 * `found` with the holders of the slots `query` asks about added (or lifted) to the top;
 * `found` itself when the question names no slot or nothing holds it.
 */
export async function withAskedSlots(
  query: string,
  found: readonly Ranked[],
  store: CoreStore,
  filter: MemoryFilter,
  cite: (memory: Memory) => string,
): Promise<Ranked[]> {
  // A liking of anything ("what does Melanie like?") is not one slot with one current value.
  // Most queries name no slot: decided by a word lookup, before the parser is loaded.
  if (!mayAskSlot(query)) return [...found];
  const slots = readQuestion(await loadParser(), query).filter(
    (slot) => slot.family !== 'stance' || slot.key !== undefined,
  );
  if (slots.length === 0) return [...found];
  const terms = [...new Set(slots.map((slot) => slotTerm(slot.subject, slot.family)))];
  const hits = await searchLexical(store, { text: terms.join(' '), filter, limit: HOLDERS });
  if (hits.length === 0) return [...found];
  const holders = (await store.getMemories(hits.map((hit) => hit.id))).flatMap((memory) => {
    const claim = storedClaims(memory.metadata).find((item) => slots.some((slot) => holds(item, slot)));
    return claim ? [{ memory, claim }] : [];
  });
  if (holders.length === 0) return [...found];
  // "Where did Elif live before Montreal?": the version holding Montreal; the current-truth pass
  // puts what it replaced first.
  const named = /\bbefore\s+(.{2,60}?)\s*[?.!]*$/iu.exec(query)?.[1]?.toLowerCase();
  const replaced = named
    ? holders.filter(({ claim }) => named.includes(claim.value) || claim.value.includes(named))
    : [];
  if (replaced.length > 0) holders.splice(0, holders.length, ...replaced);
  // Otherwise the current holders: the current-truth pass brings the version true at the time
  // asked (or, for a past question, what it replaced) from each by its links.
  // Brought in are the current holders of slots that changed — a timeline, where the words
  // often find the stale version — and, for a question asking a slot's value in so many words,
  // of any slot. Holders of unchanged slots brought to the top for questions about events
  // ("when did Caroline go to the conference") cost 2.5 points of LoCoMo's recall@5.
  else {
    // Any attribute said with "is" ("Caroline's identity") is read too loosely to bring its one
    // version above what the words found.
    const direct = (claim: StoredClaim) =>
      claim.family !== 'attribute' && slots.some((slot) => slot.direct && holds(claim, slot));
    holders.splice(
      0,
      holders.length,
      ...holders.filter(
        ({ memory, claim }) => memory.validTo === null && (direct(claim) || supersededIds(memory).length > 0),
      ),
    );
  }
  // Newest in the world first; the current-truth pass moves versions for the time asked.
  holders.sort((a, b) => (a.memory.validFrom < b.memory.validFrom ? 1 : -1));
  holders.splice(BROUGHT);
  // Brought in at the third place, not the first: what the question's words found first stays
  // first (on LoCoMo, placing holders first cost 2.5 points of recall@5: a conversation's turn
  // holding "single" is rarely the turn a question about it was written from), and a holder
  // the words found higher keeps its place.
  const scores = found.map((result) => result.score).sort((a, b) => b - a);
  const top = Math.max(0.01, scores[Math.min(PLACE, scores.length) - 1] ?? 0);
  const byId = new Map(found.map((result) => [result.memory.id, result]));
  holders.forEach(({ memory, claim }, index) => {
    const score = Math.min(1, top * (1.001 - index * 1e-5) + 1e-9);
    const existing = byId.get(memory.id);
    const base = existing ?? {
      memory,
      score,
      citation: cite(memory),
      breakdown: { lexical: null, vector: null, fused: 0, boosts: [], final: score },
    };
    byId.set(memory.id, {
      ...base,
      score: Math.max(score, existing?.score ?? 0),
      breakdown: {
        ...base.breakdown,
        boosts: [
          ...base.breakdown.boosts,
          { name: 'timeline', factor: score / Math.max(existing?.score ?? score, 1e-9) },
        ],
        final: Math.max(score, existing?.score ?? 0),
        claim: describe(claim),
      },
    });
  });
  return [...byId.values()].sort((a, b) => b.score - a.score);
}
