// Deterministic synthetic memories for scale benchmarks: short agent-log sentences over a
// few thousand words, with entities, sessions and dates, so stores face realistic term
// statistics without any external data set.
import type { MemoryInput } from '../src/index.js';

function mulberry32(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = ['Peter', 'Andy', 'Mara', 'Jonas', 'Lena', 'Ravi', 'Sofia', 'Tom', 'Yuki', 'Omar'];
const PROJECTS = ['warelay', 'castle', 'billing', 'search', 'mobile', 'gateway', 'ledger', 'atlas', 'beacon', 'harbor'];
const VERBS = [
  'fixed',
  'deployed',
  'reviewed',
  'discussed',
  'planned',
  'tested',
  'debugged',
  'documented',
  'migrated',
  'paused',
];
const SYLLABLES = ['ka', 'ri', 'to', 'me', 'lu', 'sa', 'no', 'vi', 'de', 'po', 'ra', 'ne', 'mo', 'ti', 'ga', 'be'];

// A vocabulary with a Zipf-like frequency: a few words are common, most are rare.
function vocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

function zipfPick(random: () => number, words: readonly string[]): string {
  const index = Math.floor(words.length * random() ** 3);
  return words[Math.min(index, words.length - 1)]!;
}

/** `count` memories, the same for the same `seed`. */
export function syntheticMemories(count: number, seed = 42): MemoryInput[] {
  return [...generateMemories(count, seed)];
}

/** The memories of {@link syntheticMemories}, one at a time: a million need not sit in memory at once. */
export function* generateMemories(count: number, seed = 42): Generator<MemoryInput> {
  const random = mulberry32(seed);
  const words = vocabulary(random, 5000);
  const start = Date.parse('2024-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const subject = SUBJECTS[Math.floor(random() * SUBJECTS.length)]!;
    const project = PROJECTS[Math.floor(random() * PROJECTS.length)]!;
    const verb = VERBS[Math.floor(random() * VERBS.length)]!;
    const detail = Array.from({ length: 10 + Math.floor(random() * 14) }, () => zipfPick(random, words)).join(' ');
    yield {
      content: `${subject} ${verb} the ${project} ${zipfPick(random, words)} work: ${detail}.`,
      kind: random() < 0.7 ? 'world' : 'experience',
      category: random() < 0.5 ? 'events' : 'cases',
      entities: [subject, project],
      sessionId: `session_${Math.floor(i / 50)}`,
      occurredAt: new Date(start + i * 60_000).toISOString(),
      source: { messageId: `m${i}` },
    };
  }
}

/** `count` queries in the same vocabulary as {@link syntheticMemories}. */
export function syntheticQueries(count: number, seed = 7): string[] {
  const random = mulberry32(seed);
  const words = vocabulary(mulberry32(42), 5000);
  return Array.from({ length: count }, () => {
    const subject = SUBJECTS[Math.floor(random() * SUBJECTS.length)]!;
    const project = PROJECTS[Math.floor(random() * PROJECTS.length)]!;
    return `what did ${subject} do on ${project} ${zipfPick(random, words)} ${zipfPick(random, words)}`;
  });
}
