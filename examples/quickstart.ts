// memoir quickstart: retain what an agent learned about a user and a project, recall it
// with citations, and build the prompt block. Offline: no API key, no network, no download.
// Memories persist in $MEMOIR_HOME/memoir.sqlite (default ~/.memoir); run it twice and the
// second run recognises every item as already retained.
import { createMemory, MemoirError } from '../src/index.js';

try {
  await main();
} catch (error) {
  // memoir's errors carry a suggestion; show it instead of a stack trace.
  if (!MemoirError.isInstance(error)) throw error;
  console.error(`error: ${error.message}${error.suggestion ? `\nhint: ${error.suggestion}` : ''}`);
  process.exitCode = 1;
}

async function main() {
  const memory = createMemory({ scope: { userId: 'peter', namespace: 'quickstart' } });

  const retained = await memory.retain([
    {
      content: 'Peter is in Marrakech from Nov 27 to Dec 1, 2025 for Andy’s birthday.',
      kind: 'world',
      category: 'events',
      entities: ['Peter', 'Andy'],
      occurredAt: '2025-11-27T09:00:00Z',
      source: { file: 'memory/2025-11-27.md', line: 12 },
    },
    {
      content: 'Peter prefers concise replies (under 1500 characters) on WhatsApp; long content goes into files.',
      kind: 'opinion',
      category: 'preferences',
      entities: ['Peter'],
      importance: 0.9,
      occurredAt: '2025-11-20T18:30:00Z',
      source: { file: 'memory/2025-11-20.md', line: 4 },
    },
    {
      content:
        'I fixed the Baileys WebSocket crash in warelay by wrapping the connection.update handlers in try/catch.',
      kind: 'experience',
      category: 'cases',
      entities: ['warelay'],
      occurredAt: '2025-11-27T15:10:00Z',
      source: { file: 'memory/2025-11-27.md', line: 30 },
    },
    {
      content: 'warelay is Peter’s WhatsApp gateway CLI; it runs on the Castle, his home server.',
      kind: 'world',
      category: 'entities',
      entities: ['warelay', 'Peter', 'The Castle'],
      occurredAt: '2025-10-02T10:00:00Z',
      source: { url: 'https://github.com/example/warelay#readme' },
    },
    {
      content:
        'Deploys of warelay go through the Castle’s systemd unit; restart it with `systemctl --user restart warelay`.',
      kind: 'world',
      category: 'patterns',
      entities: ['warelay', 'The Castle'],
      occurredAt: '2025-11-02T08:00:00Z',
      source: { file: 'bank/entities/warelay.md', line: 7 },
    },
  ]);

  console.log(`retained ${retained.memories.length} new memories, ${retained.skipped.length} already known`);

  const queries = ['How long should my replies to Peter be?', 'What went wrong with warelay and how was it fixed?'];

  for (const query of queries) {
    const { results } = await memory.recall(query, { k: 3 });
    console.log(`\n? ${query}`);
    for (const result of results) {
      console.log(`  ${result.score.toFixed(3)}  [${result.memory.kind}] ${result.memory.abstract}`);
      console.log(`         cited from ${result.citation}`);
    }
  }

  const context = await memory.recall('Where is Peter for Andy’s birthday?', { k: 2, tokenBudget: 200 });
  console.log('\n--- context block for the prompt ---');
  console.log(memory.formatContext(context));

  await memory.close();
}
