/** Which of the seed's recall kinds a query asks for: lexical, entity, temporal or opinion. */
import type { MemoryFilter } from '../spec/store.js';
import type { CoreStore } from '../store/store-facade.js';
import { type TimeCue, timeCueOf } from '../utils/time-cues.js';

/** The recall kinds. `auto` (the default) reads the kind from the query. */
export const RECALL_INTENTS = ['auto', 'lexical', 'entity', 'temporal', 'opinion'] as const;

/**
 * How a query was answered: the recall kind, and the entity or time span it was about.
 *
 * @group Recall
 */
export interface RecallIntent {
  /** `lexical` (hybrid search, as always), `entity` ("tell me about X"), `temporal` (a time cue), `opinion` ("what does X prefer?"). */
  kind: 'lexical' | 'entity' | 'temporal' | 'opinion';
  /** The entity an entity or opinion query is about, as stored. */
  entity?: string;
  /** Start of the time span a time cue named (ISO). */
  since?: string;
  /** End of the time span a time cue named (ISO). */
  until?: string;
  /** True when the query asked for the newest match ("last time we tried Y"). */
  newest?: boolean;
  /** The text that was searched for, once the cue's words were taken out. */
  searchText: string;
}

const ENTITY_QUESTION =
  /^\s*(?:tell me (?:everything |more )?about|who is|who's|who are|what is|what's|what do (?:you|we|i) know about|what about|summari[sz]e|info on)\s+(.+?)[\s?.!]*$/i;
const OPINION_QUESTION = [
  /^\s*what (?:does|do|did|would) (.+?) (?:prefer|like|think|want|dislike|feel|believe|enjoy|love|hate)\b(.*)$/i,
  /^\s*how (?:does|do|did) (.+?) feel about\b(.*)$/i,
  /^\s*(?:what are )?(.+?)'s (?:preferences|opinions|views|beliefs|likes|dislikes)\b(.*)$/i,
  /^\s*(?:does|do) (.+?) (?:prefer|like|want|dislike|enjoy|love|hate)\b(.*)$/i,
];

/** The stored spelling of an entity a name refers to, when any memory in `filter` mentions it. */
async function knownEntity(store: CoreStore, filter: MemoryFilter, name: string): Promise<string | undefined> {
  const bare = name
    .trim()
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/^@/, '');
  const spellings = [...new Set([name.trim(), bare, bare.replace(/\s+/g, '-'), `The-${bare.replace(/\s+/g, '-')}`])];
  for (const spelling of spellings) {
    if (spelling === '' || spelling.length > 256) continue;
    const [memory] = await store.listMemories({ filter: { ...filter, entities: [spelling] }, limit: 1 });
    if (!memory) continue;
    const lower = spelling.toLowerCase();
    return memory.entities.find((entity) => entity.toLowerCase() === lower) ?? spelling;
  }
  return undefined;
}

function temporal(cue: TimeCue): RecallIntent {
  return {
    kind: 'temporal',
    ...(cue.span ? { since: new Date(Math.max(cue.span.start, -62_167_219_200_000)).toISOString() } : {}),
    ...(cue.span ? { until: new Date(Math.min(cue.span.end, 253_402_300_799_999)).toISOString() } : {}),
    ...(cue.newest ? { newest: true } : {}),
    searchText: cue.rest,
  };
}

/**
 * Read the recall kind from a query (or take the one asked for): an entity question names a
 * known entity, an opinion question names one that holds opinions, a time cue names a span.
 * Anything else, or a question about an unknown name, is lexical.
 */
export async function recallIntentOf(
  query: string,
  requested: (typeof RECALL_INTENTS)[number],
  context: { store: CoreStore; filter: MemoryFilter; now: number },
): Promise<RecallIntent> {
  const lexical: RecallIntent = { kind: 'lexical', searchText: query };
  if (requested === 'lexical') return lexical;
  const { store, filter } = context;
  if (requested === 'auto' || requested === 'opinion') {
    for (const pattern of OPINION_QUESTION) {
      const match = pattern.exec(query);
      if (!match) continue;
      const entity = await knownEntity(store, { ...filter, kinds: ['opinion'] }, match[1]!);
      if (entity) return { kind: 'opinion', entity, searchText: (match[2] ?? '').replace(/[?.!]+\s*$/, '').trim() };
    }
    if (requested === 'opinion') return { kind: 'opinion', searchText: query };
  }
  if (requested === 'auto' || requested === 'entity') {
    const match = ENTITY_QUESTION.exec(query);
    const entity = match ? await knownEntity(store, filter, match[1]!) : undefined;
    if (entity) return { kind: 'entity', entity, searchText: match![1]! };
    if (requested === 'entity') {
      const named = await knownEntity(store, filter, query.replace(/[?.!]+\s*$/, ''));
      return named ? { kind: 'entity', entity: named, searchText: query } : lexical;
    }
  }
  const cue = timeCueOf(query, context.now);
  if (cue) return temporal(cue);
  return requested === 'temporal' ? { kind: 'temporal', searchText: query } : lexical;
}
