// memoir conversation pipeline: extract → dedup → merge against any OpenAI-compatible server.
//
//   OPENAI_API_KEY=sk-… npx tsx examples/conversation.ts                       # OpenAI
//   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MEMOIR_CHAT_MODEL=llama3.1 \
//     MEMOIR_EMBEDDING_MODEL=nomic-embed-text MEMOIR_EMBEDDING_DIMENSIONS=768 \
//     npx tsx examples/conversation.ts                                           # Ollama
//   (LM Studio: OPENAI_BASE_URL=http://127.0.0.1:1234/v1 and its model names.)
//
// It retains two conversations into a throwaway store and prints what was created, merged
// and skipped, with the tokens each pipeline stage used.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIChatModel, createOpenAIEmbedder } from '../src/adapters/openai/index.js';
import { type ConversationInput, createMemory } from '../src/index.js';

if (!process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
  console.log(`This example talks to an OpenAI-compatible server. Set:
  OPENAI_API_KEY                 for api.openai.com (or any server that needs a key)
  OPENAI_BASE_URL                for another server, e.g. http://127.0.0.1:11434/v1 (Ollama)
                                 or http://127.0.0.1:1234/v1 (LM Studio); no key needed there
  MEMOIR_CHAT_MODEL              chat model (default gpt-4o-mini)
  MEMOIR_EMBEDDING_MODEL         embedding model (default text-embedding-3-small)
  MEMOIR_EMBEDDING_DIMENSIONS    its vector length, for models memoir doesn't know
Nothing was sent anywhere.`);
  process.exit(0);
}

const memory = createMemory({
  home: mkdtempSync(join(tmpdir(), 'memoir-conversation-')),
  languageModel: createOpenAIChatModel({ model: process.env.MEMOIR_CHAT_MODEL }),
  embedder: createOpenAIEmbedder({
    model: process.env.MEMOIR_EMBEDDING_MODEL,
    dimensions: process.env.MEMOIR_EMBEDDING_DIMENSIONS ? Number(process.env.MEMOIR_EMBEDDING_DIMENSIONS) : undefined,
  }),
  scope: { userId: 'sam' },
});
memory.on('memory:created', ({ memory: m }) => console.log(`  created [${m.category}] ${m.abstract}`));
memory.on('memory:merged', ({ memory: m }) => console.log(`  merged  [${m.category}] ${m.abstract}`));
memory.on('memory:skipped', ({ reason, detail }) => console.log(`  skipped (${reason}) ${detail}`));
memory.on('extraction:failed', ({ reason }) => console.log(`  extraction failed, kept as an episode: ${reason}`));

const conversations: ConversationInput[] = [
  {
    sessionId: 'session_1',
    messages: [
      { role: 'user', content: 'Hi! I am Sam, a backend engineer in Lisbon. Please keep answers short.', id: 'a1' },
      { role: 'assistant', content: 'Hi Sam, noted: short answers.', id: 'a2' },
      { role: 'user', content: 'Our deploy failed last night: the disk on build-02 was full.', id: 'a3' },
      { role: 'assistant', content: 'I cleared old Docker images on build-02 and redeployed; it passed.', id: 'a4' },
    ],
  },
  {
    sessionId: 'session_2',
    messages: [
      { role: 'user', content: 'Reminder: I like short answers, bullet points are even better.', id: 'b1' },
      { role: 'assistant', content: 'Got it, bullets from now on.', id: 'b2' },
      { role: 'user', content: 'I moved from Lisbon to Porto last month.', id: 'b3' },
      { role: 'assistant', content: 'Updated: you live in Porto now.', id: 'b4' },
    ],
  },
];

for (const conversation of conversations) {
  console.log(`\n${conversation.sessionId}:`);
  await memory.retain(conversation);
}

const { pipeline, memories } = await memory.stats();
console.log(`\n${memories} memories stored. Cost per stage:`);
for (const [stage, cost] of Object.entries(pipeline)) {
  console.log(
    `  ${stage.padEnd(8)} ${cost.calls} calls, ${cost.inputTokens} tokens in, ${cost.outputTokens} out, ${Math.round(cost.ms)} ms`,
  );
}
await memory.close();
