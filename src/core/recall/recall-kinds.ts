/** Answering each recall kind: hybrid search, an entity's page and facts, a time span, opinions. */

import { citationOf } from '../shared/format-context.js';
import type { Memory } from '../spec/memory.js';
import type { ListMemoriesQuery, MemoryFilter } from '../spec/store.js';
import { isUndated, windowStart } from '../utils/undated.js';
import { type RankingContext, rankMemories } from './rank.js';
import type { RecallIntent } from './recall-intent.js';
import type { ParsedRecallOptions } from './recall-options.js';
import type { RecallResult } from './recall-result.js';

type Ranked = Omit<RecallResult, 'tokens'>;

// Listing an entity's or a span's memories reads at most this many before ordering them.
const LIST_LIMIT = 2000;
// "the last time": among results scoring at least this share of the best, the newest comes first.
const NEWEST_SHARE = 0.6;
// What a memory inside the span a time cue names is multiplied by: enough to lift it over
// near-equal matches outside, not over a clearly better one.
const TIME_BOOST = 1.25;

/** An opinion's confidence: `O(c=…)` in a workspace, or the `confidence` metadata reflect writes. */
export function confidenceOf(memory: Memory): number | undefined {
  const value = memory.metadata.confidence;
  return typeof value === 'number' && value >= 0 && value <= 1 ? value : undefined;
}

function idsIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function evidenceOf(memory: Memory): string[] {
  const against = idsIn(memory.metadata.contradicting).map((id) => `against:${id}`);
  return [citationOf(memory), ...idsIn(memory.metadata.supporting), ...against];
}

// Results that were listed, not searched: the score only says their place in the order.
function listed(memories: readonly Memory[], k: number): Ranked[] {
  const shown = memories.slice(0, k);
  return shown.map((memory, index) => {
    const score = (shown.length - index) / shown.length;
    return {
      memory,
      score,
      citation: citationOf(memory),
      breakdown: { lexical: null, vector: null, fused: score, boosts: [], final: score },
    };
  });
}

// An undated memory (a curated page's line) says what holds now: it counts as the newest.
const timeKey = (memory: Memory) => (isUndated(memory) ? '\uffff' : memory.occurredAt);
const newestFirst = (a: Memory, b: Memory) =>
  timeKey(b).localeCompare(timeKey(a)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function within(filter: MemoryFilter, since: string | undefined, until: string | undefined): MemoryFilter {
  const start = since === undefined || (filter.since !== undefined && filter.since > since) ? filter.since : since;
  const end = until === undefined || (filter.until !== undefined && filter.until < until) ? filter.until : until;
  // An undated memory (a workspace page's line with no date) is in no span.
  return { ...filter, since: windowStart(start, end), until: end };
}

function withOpinionFields(results: Ranked[]): Ranked[] {
  return results.map((result) => {
    const confidence = confidenceOf(result.memory);
    return result.memory.kind === 'opinion'
      ? { ...result, ...(confidence === undefined ? {} : { confidence }), evidence: evidenceOf(result.memory) }
      : result;
  });
}

const CONTENT_WORD = /[\p{L}\p{N}]{3,}/u;
const QUESTION_WORDS =
  /\b(?:what|when|where|who|which|how|did|does|do|we|i|you|they|happened|happen|going|go|on|was|were|is|are|the|anything|everything|us|me)\b/giu;

function inSpan(memory: Memory, since: string | undefined, until: string | undefined): boolean {
  if (isUndated(memory)) return false;
  const range = memory.metadata.timeRange as { start?: unknown; end?: unknown } | undefined;
  const start = typeof range?.start === 'string' ? range.start : memory.occurredAt;
  const end = typeof range?.end === 'string' ? range.end : memory.occurredAt;
  return (since === undefined || end >= since) && (until === undefined || start <= until);
}

// A question that is only about a time ("what happened around Nov 27?") lists that span; one
// about something at a time ranks the whole memory and lifts what falls in the span, because
// a memory often mentions an event on a later day than it happened.
async function temporalRecall(
  query: string,
  intent: RecallIntent,
  filter: MemoryFilter,
  options: ParsedRecallOptions,
  context: RankingContext,
): Promise<Ranked[]> {
  const { k } = context;
  const hasSpan = intent.since !== undefined || intent.until !== undefined;
  const topic = intent.searchText.replace(QUESTION_WORDS, ' ');
  if (hasSpan && !CONTENT_WORD.test(topic)) {
    const span = within(filter, intent.since, intent.until);
    const memories = await listShown(context, { filter: span, orderBy: 'occurredAt', direction: 'desc', limit: k });
    return listed(memories, k);
  }
  // The cue's words stay in the search: a memory may say "in June" itself.
  let ranked = await rankMemories(query, filter, options, {
    ...context,
    k: hasSpan ? Math.max(k * 2, 20) : k,
  });
  if (hasSpan) {
    ranked = ranked
      .map((result) => {
        if (!inSpan(result.memory, intent.since, intent.until)) return result;
        const score = Math.min(1, result.score * TIME_BOOST);
        const boosts = [...result.breakdown.boosts, { name: 'time' as const, factor: TIME_BOOST }];
        return { ...result, score, breakdown: { ...result.breakdown, boosts, final: score } };
      })
      .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : 1))
      .slice(0, k);
  }
  if (intent.newest && ranked.length > 0) {
    const bar = ranked[0]!.score * NEWEST_SHARE;
    const relevant = ranked.filter((result) => result.score >= bar).sort((a, b) => newestFirst(a.memory, b.memory));
    ranked = [...relevant, ...ranked.filter((result) => result.score < bar)];
  }
  return ranked;
}

/**
 * Up to `query.limit` memories the store lists, without those recall hides: pages on past
 * hidden ones, so a span crowded with transcripts still yields its `k` memories.
 */
async function listShown(context: RankingContext, query: ListMemoriesQuery & { limit: number }): Promise<Memory[]> {
  const { store, hidden } = context;
  if (!hidden) return store.listMemories(query);
  const shown: Memory[] = [];
  for (let offset = 0; shown.length < query.limit; offset += query.limit) {
    const page = await store.listMemories({ ...query, offset });
    for (const memory of page) if (!hidden(memory) && shown.length < query.limit) shown.push(memory);
    if (page.length < query.limit) break;
  }
  return shown;
}

/** Answer a query the way its recall kind asks. */
export async function recallByIntent(
  query: string,
  intent: RecallIntent,
  filter: MemoryFilter,
  options: ParsedRecallOptions,
  context: RankingContext,
): Promise<Ranked[]> {
  const { k } = context;
  if (intent.kind === 'entity' && intent.entity !== undefined) {
    const memories = await listShown(context, {
      filter: { ...filter, entities: [intent.entity] },
      orderBy: 'occurredAt',
      direction: 'desc',
      limit: LIST_LIMIT,
    });
    const page = `bank/entities/${intent.entity}.md`;
    const onPage = memories.filter((memory) => memory.source?.file === page);
    onPage.sort((a, b) => (a.source?.line ?? 0) - (b.source?.line ?? 0));
    const facts = memories.filter((memory) => memory.source?.file !== page).sort(newestFirst);
    return withOpinionFields(listed([...onPage, ...facts], k));
  }
  if (intent.kind === 'opinion') {
    const opinions = { ...filter, kinds: ['opinion' as const] };
    if (intent.entity === undefined)
      return withOpinionFields(await rankMemories(intent.searchText, opinions, options, context));
    const about = { ...opinions, entities: [intent.entity] };
    const searched = intent.searchText === '' ? [] : await rankMemories(intent.searchText, about, options, context);
    if (searched.length > 0) return withOpinionFields(searched);
    const all = await listShown(context, {
      filter: about,
      orderBy: 'occurredAt',
      direction: 'desc',
      limit: LIST_LIMIT,
    });
    all.sort((a, b) => (confidenceOf(b) ?? 0.5) - (confidenceOf(a) ?? 0.5) || newestFirst(a, b));
    return withOpinionFields(listed(all, k));
  }
  if (intent.kind === 'temporal')
    return withOpinionFields(await temporalRecall(query, intent, filter, options, context));
  return withOpinionFields(await rankMemories(intent.searchText, filter, options, context));
}
