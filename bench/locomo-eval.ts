// One evaluation of memoir on a LoCoMo-format set: retain every turn (one memory per turn,
// one scope per conversation), ask every question as written, and score turn-level recall@k.
// Shared by the plain report (locomo.ts) and the held-out tuning (locomo-folds.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25Index } from '../src/core/text/bm25-index.js';
import { lexicalText } from '../src/core/text/memory-text.js';
import {
  type ConversationMessage,
  createInMemoryStore,
  createMemory,
  type Embedder,
  type MemoryClient,
  type MemoryInput,
  type RankingOptions,
  type RetainOptions,
} from '../src/index.js';
import type { Question, Turn } from './locomo-data.js';

/** What one evaluation varies: the retain and ranking options a user can set. */
export interface EvalSetting {
  /** Short name used in tables. */
  name: string;
  /** createMemory's `ranking`. */
  ranking?: RankingOptions;
  /** retain's options for each conversation's turns (contextWindow, …). */
  retain?: Pick<RetainOptions, 'contextWindow' | 'corrections'>;
  /**
   * `bench` (default): each turn as {@link turnInput} builds it, with `contextWindow: 2` and
   * `onDuplicate: 'keep'`; `defaults`: what a user gets retaining each turn with content,
   * scope and source only ({@link plainTurnInput}) and no retain options.
   */
  recipe?: 'bench' | 'defaults';
  /**
   * How the turns reach memoir: `batch` (default) every turn of a conversation in one
   * `retain([...])` as {@link turnInput} builds it; `turns` one `retain({ messages })` per turn,
   * as an agent retains while it talks; `session` one `retain({ messages })` per session, the
   * README's agent loop. The last two go through the conversation path with no model.
   */
  path?: RetainPath;
}

/** The three ways the bench retains a conversation. */
export type RetainPath = 'batch' | 'turns' | 'session';
export const RETAIN_PATHS: readonly RetainPath[] = ['batch', 'turns', 'session'];

/** One scored question. */
export interface Score {
  sampleId: string;
  category: number;
  /** Recall at each k of the run, 0..1. */
  recall: number[];
}

export interface EvalOptions {
  store: 'memory' | 'sqlite';
  embedder?: Embedder;
  ks: readonly number[];
  /** Called for the question with this position, with its response, for --explain. */
  explain?: { position: number; print: (lines: string[]) => void };
}

/** The memory a turn becomes: the speaker's words, a photo's caption, the session's date. */
export function turnInput(turn: Turn): MemoryInput {
  const caption = turn.caption ? ` [shares a photo: ${turn.caption}]` : '';
  return {
    content: `${turn.speaker}: ${turn.text}${caption}`,
    kind: 'world',
    category: 'events',
    entities: [turn.speaker],
    scope: { namespace: turn.sampleId },
    sessionId: `${turn.sampleId}/${turn.sessionKey}`,
    source: { messageId: turn.diaId },
    ...(turn.occurredAt ? { occurredAt: turn.occurredAt } : {}),
  };
}

/**
 * A turn as a chat message: the first speaker of the conversation is the user, the other one
 * the assistant, each with their name; the turn id is the message id.
 */
export function turnMessage(turn: Turn, firstSpeaker: string): ConversationMessage {
  const caption = turn.caption ? ` [shares a photo: ${turn.caption}]` : '';
  return {
    role: turn.speaker === firstSpeaker ? 'user' : 'assistant',
    name: turn.speaker,
    content: `${turn.text}${caption}`,
    id: turn.diaId,
  };
}

/** Retain one conversation's turns the way `path` says. */
async function retainSample(memory: MemoryClient, sampleTurns: readonly Turn[], setting: EvalSetting): Promise<void> {
  const path = setting.path ?? 'batch';
  if (path === 'batch') {
    for (let start = 0; start < sampleTurns.length; start += 1000) {
      // Each session's turns go in one call, so each turn is indexed with the turns around it.
      const slice = sampleTurns.slice(start, start + 1000);
      if (setting.recipe === 'defaults') await memory.retain(slice.map(plainTurnInput), setting.retain);
      else await memory.retain(slice.map(turnInput), { onDuplicate: 'keep', contextWindow: 2, ...setting.retain });
    }
    return;
  }
  const firstSpeaker = sampleTurns[0]?.speaker ?? '';
  const sessions = new Map<string, Turn[]>();
  for (const turn of sampleTurns) sessions.set(turn.sessionKey, [...(sessions.get(turn.sessionKey) ?? []), turn]);
  for (const [sessionKey, sessionTurns] of sessions) {
    const placed = {
      sessionId: `${sessionTurns[0]!.sampleId}/${sessionKey}`,
      scope: { namespace: sessionTurns[0]!.sampleId },
      ...(sessionTurns[0]!.occurredAt ? { occurredAt: sessionTurns[0]!.occurredAt } : {}),
    };
    const groups = path === 'session' ? [sessionTurns] : sessionTurns.map((turn) => [turn]);
    for (const group of groups) {
      await memory.retain({ messages: group.map((turn) => turnMessage(turn, firstSpeaker)), ...placed });
    }
  }
}

/** A turn retained with default settings: its text, the conversation's scope and the turn id, nothing else. */
export function plainTurnInput(turn: Turn): MemoryInput {
  const { content, scope, source } = turnInput(turn);
  return { content, scope, source };
}

/** Turns grouped by conversation, in file order. */
export function bySample<T extends { sampleId: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.sampleId, [...(groups.get(item.sampleId) ?? []), item]);
  return groups;
}

function recallAt(found: readonly string[], evidence: readonly string[], ks: readonly number[]): number[] {
  const wanted = new Set(evidence);
  return ks.map((k) => found.slice(0, k).filter((id) => wanted.has(id)).length / wanted.size);
}

/** A client over a fresh store holding every turn, retained as `setting` says. */
export async function indexTurns(
  turns: readonly Turn[],
  setting: EvalSetting,
  options: EvalOptions,
): Promise<{ memory: MemoryClient; ingestSeconds: number; embedSeconds: number; dispose: () => Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), 'memoir-locomo-'));
  const memory = createMemory({
    ...(options.store === 'memory' ? { store: createInMemoryStore() } : { home }),
    ...(options.embedder ? { embedder: options.embedder } : {}),
    ranking: setting.ranking ?? {},
    logger: { log: () => {} },
  });
  const started = performance.now();
  for (const sampleTurns of bySample(turns).values()) await retainSample(memory, sampleTurns, setting);
  const ingestSeconds = (performance.now() - started) / 1000;
  // An embedder that embeds in the background has not finished when retain returns.
  await memory.flush();
  const embedSeconds = (performance.now() - started) / 1000 - ingestSeconds;
  const dispose = async () => {
    await memory.close();
    rmSync(home, { recursive: true, force: true });
  };
  return { memory, ingestSeconds, embedSeconds, dispose };
}

/** Ask every question of `questions` and score recall at each k. */
export async function scoreQuestions(
  memory: MemoryClient,
  questions: readonly Question[],
  options: EvalOptions,
  latencies?: number[],
): Promise<{ scores: Score[]; shortLists: number }> {
  const maxK = Math.max(...options.ks);
  const scores: Score[] = [];
  let shortLists = 0;
  for (const [position, question] of questions.entries()) {
    const explain = options.explain?.position === position;
    const started = performance.now();
    const response = await memory.recall(question.question, {
      scope: { namespace: question.sampleId },
      k: maxK,
      explain,
    });
    latencies?.push(performance.now() - started);
    if (response.results.length < maxK) shortLists++;
    const found = response.results.map((result) => result.memory.source?.messageId ?? '');
    scores.push({
      sampleId: question.sampleId,
      category: question.category,
      recall: recallAt(found, question.evidence, options.ks),
    });
    if (explain && options.explain) {
      const evidence = new Set(question.evidence);
      const lines = [`\nexplain #${position}: ${question.question} (evidence ${question.evidence.join(', ')})`];
      for (const [rank, result] of response.results.slice(0, 10).entries()) {
        const mark = evidence.has(result.memory.source?.messageId ?? '') ? '*' : ' ';
        lines.push(
          `${mark} ${rank + 1}. ${result.memory.source?.messageId} ${result.score.toFixed(3)} ${result.memory.content.slice(0, 90)}`,
          `     ${result.explanation}`,
        );
      }
      options.explain.print(lines);
    }
  }
  return { scores, shortLists };
}

/** Evaluate one setting end to end. */
export async function evaluate(
  turns: readonly Turn[],
  questions: readonly Question[],
  setting: EvalSetting,
  options: EvalOptions,
): Promise<Score[]> {
  const { memory, dispose } = await indexTurns(turns, setting, options);
  try {
    return (await scoreQuestions(memory, questions, options)).scores;
  } finally {
    await dispose();
  }
}

/**
 * The plain BM25 baseline, measured in the same run: each turn's own text (speaker and
 * words) in a BM25 index of its conversation, with memoir's analyzer, nothing else.
 */
export function plainBm25(turns: readonly Turn[], questions: readonly Question[], ks: readonly number[]): Score[] {
  const indexes = new Map<string, Bm25Index>();
  for (const [sampleId, sampleTurns] of bySample(turns)) {
    const index = new Bm25Index();
    for (const turn of sampleTurns) index.add(turn.diaId, turnInput(turn).content);
    indexes.set(sampleId, index);
  }
  const maxK = Math.max(...ks);
  return questions.map((question) => {
    const hits = indexes.get(question.sampleId)?.search(question.question, { limit: maxK }) ?? [];
    return {
      sampleId: question.sampleId,
      category: question.category,
      recall: recallAt(
        hits.map((hit) => hit.id),
        question.evidence,
        ks,
      ),
    };
  });
}

/**
 * BM25 over exactly what memoir indexes lexically: each stored memory's {@link lexicalText}
 * (its own text twice, the speaker entity, and the neighbouring turns of `contextWindow`), read
 * back from `memory`, in a plain BM25 index per conversation — no fusion, no boosts, no vectors.
 * Memoir's gain over this is what its ranking adds, not what the neighbour window adds.
 */
export async function indexedBm25(
  memory: MemoryClient,
  questions: readonly Question[],
  ks: readonly number[],
): Promise<Score[]> {
  const indexes = new Map<string, Bm25Index>();
  for (const sampleId of new Set(questions.map((question) => question.sampleId))) {
    const index = new Bm25Index();
    const stored = await memory.list({ scope: { namespace: sampleId }, limit: 100_000 });
    for (const item of stored) index.add(item.source?.messageId ?? item.id, lexicalText(item));
    indexes.set(sampleId, index);
  }
  const maxK = Math.max(...ks);
  return questions.map((question) => {
    const hits = indexes.get(question.sampleId)?.search(question.question, { limit: maxK }) ?? [];
    return {
      sampleId: question.sampleId,
      category: question.category,
      recall: recallAt(
        hits.map((hit) => hit.id),
        question.evidence,
        ks,
      ),
    };
  });
}

/** Mean recall at each k, in percent. */
export function meanRecall(scores: readonly Score[], ks: readonly number[]): number[] {
  return ks.map((_, i) =>
    scores.length === 0 ? 0 : (100 * scores.reduce((sum, score) => sum + score.recall[i]!, 0)) / scores.length,
  );
}
